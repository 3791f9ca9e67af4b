import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { makeRegion, stockOf } from '../checkout/checkout.testing.ts';
import { adminOk, adminOrder, orderEventNames, placeOrder } from './orders.testing.ts';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
  await makeRegion(t);
});
afterAll(() => t.close());

const cancel = (id: string) => t.admin('POST', `/admin/orders/${id}/cancel`);

describe('cancel', () => {
  it('an authorized order: stock back, payment canceled, status canceled, order.cancelled', async () => {
    const { order, variants, paymentId } = await placeOrder(t, { lines: [3, 2], product: { stock: 10 } });
    expect(await stockOf(t, variants[0].id)).toBe(7);
    t.clock.advance(5_000);
    const res = await cancel(order.id);
    expect(res.statusCode, res.body).toBe(200);
    const canceled = res.json().order;
    expect(canceled).toMatchObject({
      status: 'canceled',
      payment_status: 'canceled',
      fulfillment_status: 'canceled',
      canceled_at: t.clock.now().toISOString(),
    });
    expect(canceled.payment_collections[0]).toMatchObject({
      status: 'canceled',
      payments: [expect.objectContaining({ id: paymentId, status: 'canceled', refunds: [] })],
    });
    expect(canceled.summary.pending_difference).toBe(0);
    expect(await stockOf(t, variants[0].id)).toBe(10);
    expect(await stockOf(t, variants[1].id)).toBe(10);
    expect(await orderEventNames(t, order.id)).toEqual(['order.placed', 'order.cancelled']);
  });

  it('a captured order: the capture is refunded (recorded), then canceled; order.refunded and order.cancelled', async () => {
    const { order, variants, paymentId } = await placeOrder(t, { lines: [1] });
    await adminOk(t, `/admin/payments/${paymentId}/capture`, { amount: 1000 });
    const { order: canceled } = await adminOk(t, `/admin/orders/${order.id}/cancel`);
    const [payment] = canceled.payment_collections[0].payments;
    expect(payment).toMatchObject({ captured_amount: 1000, refunded_amount: 1000, status: 'refunded' });
    expect(payment.refunds).toEqual([expect.objectContaining({ amount: 1000, note: 'Order canceled' })]);
    expect(canceled.payment_status).toBe('refunded');
    expect(await stockOf(t, variants[0].id)).toBe(10);
    expect(await orderEventNames(t, order.id)).toEqual(['order.placed', 'order.refunded', 'order.cancelled']);
  });

  it('unmanaged stock does not move; backordered stock comes back', async () => {
    const unmanaged = await placeOrder(t, { lines: [2], product: { stock: 0, manage_inventory: false } });
    await adminOk(t, `/admin/orders/${unmanaged.order.id}/cancel`);
    expect(await stockOf(t, unmanaged.variants[0].id)).toBe(0);
    const backorder = await placeOrder(t, { lines: [3], product: { stock: 1, allow_backorder: true } });
    expect(await stockOf(t, backorder.variants[0].id)).toBe(-2);
    await adminOk(t, `/admin/orders/${backorder.order.id}/cancel`);
    expect(await stockOf(t, backorder.variants[0].id)).toBe(1);
  });

  it("twice: refused with Medusa's message; stock is not given back twice", async () => {
    const { order, variants } = await placeOrder(t, { lines: [2] });
    await adminOk(t, `/admin/orders/${order.id}/cancel`);
    const again = await cancel(order.id);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({
      code: 'order_canceled',
      type: 'not_allowed',
      message: `Order with id ${order.id} has been canceled.`,
    });
    expect(await stockOf(t, variants[0].id)).toBe(10);
    expect(await orderEventNames(t, order.id)).toEqual(['order.placed', 'order.cancelled']);
  });

  it('after a fulfillment: refused, nothing changes; allowed once the fulfillment is canceled', async () => {
    const { order, variants, paymentId } = await placeOrder(t, { lines: [2] });
    await adminOk(t, `/admin/payments/${paymentId}/capture`);
    const { order: fulfilled } = await adminOk(t, `/admin/orders/${order.id}/fulfillments`, {
      items: [{ item_id: order.items[0].id, quantity: 1 }],
    });
    const refused = await cancel(order.id);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      code: 'order_fulfillments_not_canceled',
      type: 'not_allowed',
      message: 'All fulfillments must be canceled before canceling an order',
    });
    const detail = await adminOrder(t, order.id);
    expect(detail).toMatchObject({
      status: 'pending',
      payment_status: 'captured',
      fulfillment_status: 'partially_fulfilled',
      canceled_at: null,
    });
    expect(detail.payment_collections[0].payments[0].refunds).toEqual([]);
    expect(await stockOf(t, variants[0].id)).toBe(8);
    await adminOk(t, `/admin/orders/${order.id}/fulfillments/${fulfilled.fulfillments[0].id}/cancel`);
    const { order: canceled } = await adminOk(t, `/admin/orders/${order.id}/cancel`);
    expect(canceled).toMatchObject({ status: 'canceled', payment_status: 'refunded' });
    expect(await stockOf(t, variants[0].id)).toBe(10);
    expect(await orderEventNames(t, order.id)).toEqual([
      'order.placed',
      'order.paid',
      'order.fulfilled',
      'order.refunded',
      'order.cancelled',
    ]);
  });

  it('a canceled order takes no capture, fulfillment, shipment or refund', async () => {
    const { order, paymentId } = await placeOrder(t);
    await adminOk(t, `/admin/orders/${order.id}/cancel`);
    const message = `Order with id ${order.id} has been canceled.`;
    const attempts = [
      await t.admin('POST', `/admin/orders/${order.id}/capture`, {}),
      await t.admin('POST', `/admin/payments/${paymentId}/capture`, {}),
      await t.admin('POST', `/admin/orders/${order.id}/fulfillments`, {
        items: [{ item_id: order.items[0].id, quantity: 1 }],
      }),
    ];
    for (const res of attempts) expect(res.json()).toEqual({ type: 'not_allowed', code: 'order_canceled', message });
    const refund = await t.admin('POST', `/admin/orders/${order.id}/refunds`, { amount: 1 });
    expect(refund.statusCode).toBe(400);
    expect(refund.json().type).toBe('not_allowed');
    expect(await orderEventNames(t, order.id)).toEqual(['order.placed', 'order.cancelled']);
  });

  it('concurrent cancels: one succeeds, the others are refused, stock comes back once', async () => {
    const { order, variants } = await placeOrder(t, { lines: [4] });
    const results = await Promise.all([cancel(order.id), cancel(order.id), cancel(order.id)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400, 400]);
    expect(await stockOf(t, variants[0].id)).toBe(10);
    expect(await orderEventNames(t, order.id)).toEqual(['order.placed', 'order.cancelled']);
  });

  it('404, body validation, viewer 403', async () => {
    const { order } = await placeOrder(t);
    const missing = await cancel('order_nope');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({
      code: 'order_not_found',
      type: 'not_found',
      message: 'Order with id: order_nope was not found',
    });
    expect((await t.admin('POST', `/admin/orders/${order.id}/cancel`, { reason: 'x' })).statusCode).toBe(400);
    expect(
      (await t.admin('POST', `/admin/orders/${order.id}/cancel`, undefined, { token: t.viewerToken })).statusCode,
    ).toBe(403);
    expect((await adminOrder(t, order.id)).status).toBe('pending');
  });
});
