import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { makeProduct, makeRegion } from '../checkout/checkout.testing.ts';
import { adminOk, adminOrder, placeOrder } from './orders.testing.ts';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
  await makeRegion(t);
});
afterAll(() => t.close());

/** A captured order of 3 × 1500 that an edit grows by 2 × 1500: 3000 owed. */
async function owingOrder() {
  const { order, paymentId } = await placeOrder(t);
  await adminOk(t, `/admin/orders/${order.id}/capture`);
  const extra = (await makeProduct(t)).variant;
  await adminOk(t, '/admin/order-edits', { order_id: order.id });
  await adminOk(t, `/admin/order-edits/${order.id}/items`, { items: [{ variant_id: extra.id, quantity: 2 }] });
  await adminOk(t, `/admin/order-edits/${order.id}/request`, {});
  await adminOk(t, `/admin/order-edits/${order.id}/confirm`, {});
  return { order, paymentId };
}

type Pc = { id: string; status: string; amount: number; order_id: string | null; payments: unknown[] };
const unpaid = (o: { payment_collections: Pc[] }) => o.payment_collections.filter((pc) => pc.status === 'not_paid');

describe('payment collections of an order difference', () => {
  it('a confirmed edit that costs more opens one unpaid collection; mark-as-paid captures it', async () => {
    const { order } = await owingOrder();
    let detail = await adminOrder(t, order.id);
    expect(detail.summary).toMatchObject({ paid_total: 4500, pending_difference: 3000 });
    const [pc] = unpaid(detail);
    expect(pc).toMatchObject({ amount: 3000, order_id: order.id, payments: [] });

    const tooMuch = await t.admin('POST', '/admin/payment-collections', { order_id: order.id, amount: 3001 });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json()).toMatchObject({ type: 'not_allowed', code: 'payment_collection_too_large' });

    const paid = await adminOk(t, `/admin/payment-collections/${pc.id}/mark-as-paid`, { order_id: order.id });
    expect(paid.payment_collection).toMatchObject({ id: pc.id, status: 'completed' });
    detail = await adminOrder(t, order.id);
    expect(detail.summary).toMatchObject({ paid_total: 7500, refunded_total: 0, pending_difference: 0 });
    expect(detail.transactions.map((x: { amount: number }) => x.amount)).toEqual([4500, 3000]);
    const twice = await t.admin('POST', `/admin/payment-collections/${pc.id}/mark-as-paid`, { order_id: order.id });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().code).toBe('payment_collection_not_payable');
    expect((await adminOrder(t, order.id)).summary.paid_total).toBe(7500);
  });

  it('the shopper pays it through a payment session; the desk captures it', async () => {
    const { order } = await owingOrder();
    const [pc] = unpaid(await adminOrder(t, order.id));
    const session = await t.store('POST', `/store/payment-collections/${pc.id}/payment-sessions`, {
      provider_id: 'pp_system_default',
    });
    expect(session.statusCode, session.body).toBe(200);
    expect(session.json().payment_collection).toMatchObject({ status: 'awaiting', amount: 3000 });
    const authorized = await t.store('POST', `/store/payment-collections/${pc.id}/authorize`, {});
    expect(authorized.statusCode, authorized.body).toBe(200);
    expect(authorized.json().payment_collection.status).toBe('authorized');
    const again = await t.store('POST', `/store/payment-collections/${pc.id}/authorize`, {});
    expect(again.statusCode).toBe(400);
    await adminOk(t, `/admin/orders/${order.id}/capture`);
    const detail = await adminOrder(t, order.id);
    expect(detail.summary).toMatchObject({ paid_total: 7500, pending_difference: 0 });
  });

  it('a difference owed to the shopper is refunded through the payment, never more than was paid', async () => {
    const { order, paymentId } = await placeOrder(t);
    await adminOk(t, `/admin/orders/${order.id}/capture`);
    await adminOk(t, '/admin/order-edits', { order_id: order.id });
    await adminOk(t, `/admin/order-edits/${order.id}/items/item/${order.items[0].id}`, { quantity: 1 });
    await adminOk(t, `/admin/order-edits/${order.id}/request`, {});
    await adminOk(t, `/admin/order-edits/${order.id}/confirm`, {});
    let detail = await adminOrder(t, order.id);
    expect(detail.summary.pending_difference).toBe(-3000);
    expect(unpaid(detail)).toEqual([]);
    const over = await t.admin('POST', `/admin/payments/${paymentId}/refund`, { amount: 4501 });
    expect(over.statusCode).toBe(400);
    expect(over.json()).toMatchObject({ type: 'not_allowed', code: 'refund_exceeds_captured' });
    await adminOk(t, `/admin/payments/${paymentId}/refund`, { amount: 3000 });
    detail = await adminOrder(t, order.id);
    expect(detail.summary).toMatchObject({ paid_total: 4500, refunded_total: 3000, pending_difference: 0 });
  });
});
