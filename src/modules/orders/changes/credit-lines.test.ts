import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.ts';
import { medusaSdks, type Sdk } from '../../../../test/medusa-sdk.ts';
import { rows } from '../../../platform/db/database.ts';
import { makeRegion } from '../../checkout/checkout.testing.ts';
import { adminOk, adminOrder, orderEventNames, placeOrder } from '../orders.testing.ts';

let t: TestApp;
let sdk: Sdk;

beforeAll(async () => {
  t = await startTestApp();
  await makeRegion(t);
  sdk = (await medusaSdks(t)).dashboard;
});
afterAll(() => t.close());

/** Everything a refused credit line must leave as it was. */
const state = async (orderId: string) =>
  (
    await rows<Record<string, unknown>>(
      t.database.db,
      sql`select o.updated_at,
            (select count(*)::int from order_changes c where c.order_id = o.id) as changes,
            (select count(*)::int from order_change_actions a where a.order_id = o.id) as actions,
            (select count(*)::int from order_versions v where v.order_id = o.id) as versions,
            (select count(*)::int from order_credit_lines l where l.order_id = o.id) as credit_lines,
            (select row_to_json(s) from order_summaries s where s.order_id = o.id) as summary
          from orders o where o.id = ${orderId}`,
    )
  )[0];

/** A captured order of 3 × 1500, edited to `quantity` units of its line: it then owes (or is owed) the difference. */
async function editedOrder(quantity: number) {
  const { order } = await placeOrder(t);
  await adminOk(t, `/admin/orders/${order.id}/capture`);
  await sdk.admin.orderEdit.initiateRequest({ order_id: order.id });
  await sdk.admin.orderEdit.updateOriginalItem(order.id, order.items[0].id, { quantity });
  await sdk.admin.orderEdit.request(order.id);
  await sdk.admin.orderEdit.confirm(order.id);
  return order;
}

const refused = async (orderId: string, body: unknown, code: string) => {
  const res = await t.admin('POST', `/admin/orders/${orderId}/credit-lines`, body as never);
  expect(res.statusCode, res.body).toBe(400);
  expect(res.json()).toMatchObject({ code });
  return res.json();
};

describe('order credit lines through the Medusa SDK (createCreditLine)', () => {
  it('settles what an edit left owing: summary and totals move as Medusa’s, in new versions, until the order completes', async () => {
    const order = await editedOrder(4);
    const before = await adminOrder(t, order.id);
    expect(before).toMatchObject({ version: 2, total: 6000, credit_line_total: 0, credit_lines: [] });
    expect(before.summary).toMatchObject({ current_order_total: 6000, paid_total: 4500, pending_difference: 1500 });

    const first = await sdk.admin.order.createCreditLine(order.id, {
      amount: 1000,
      reference: 'goodwill',
      reference_id: 'ticket_42',
      metadata: { by: 'phone' },
    });
    expect(first.order).toMatchObject({ id: order.id, version: 3, total: 5000, credit_line_total: 1000 });
    expect(first.order.credit_lines).toEqual([
      expect.objectContaining({
        order_id: order.id,
        amount: 1000,
        reference: 'goodwill',
        reference_id: 'ticket_42',
        metadata: { by: 'phone' },
      }),
    ]);
    expect(first.order.summary).toMatchObject({
      original_order_total: 4500,
      current_order_total: 5000,
      accounting_total: 5000,
      credit_line_total: 1000,
      paid_total: 4500,
      refunded_total: 0,
      transaction_total: 4500,
      pending_difference: 500,
    });

    // More than is still owed, or the wrong sign: refused, nothing written.
    const held = await state(order.id);
    expect(
      (await refused(order.id, { amount: 600, reference: 'r', reference_id: 'x' }, 'order_credit_line_amount')).message,
    ).toBe(
      'A credit line of 600 cannot settle a pending difference of 500: it must be non-zero, of the same sign and at most as large',
    );
    await refused(order.id, { amount: -100, reference: 'r', reference_id: 'x' }, 'order_credit_line_amount');
    await refused(order.id, { amount: 0, reference: 'r', reference_id: 'x' }, 'order_credit_line_amount');
    expect(await state(order.id)).toEqual(held);

    const second = await sdk.admin.order.createCreditLine(order.id, {
      amount: 500,
      reference: 'goodwill',
      reference_id: 't2',
    });
    expect(second.order).toMatchObject({ version: 4, total: 4500, credit_line_total: 1500 });
    expect(second.order.summary).toMatchObject({
      current_order_total: 4500,
      credit_line_total: 1500,
      pending_difference: 0,
    });
    // Settled: nothing left for another line.
    await refused(order.id, { amount: 1, reference: 'r', reference_id: 'x' }, 'order_credit_line_no_difference');

    // Each line is a confirmed change of its own; the versions they left never change.
    const { order_changes } = await sdk.admin.order.listChanges(order.id);
    expect(order_changes.map((c) => [c.change_type, c.status, c.version])).toEqual([
      ['edit', 'confirmed', 2],
      ['credit_line', 'confirmed', 3],
      ['credit_line', 'confirmed', 4],
    ]);
    expect(
      order_changes[1].actions.map((a) => [a.action, (a as { amount?: number }).amount, a.reference, a.reference_id]),
    ).toEqual([['CREDIT_LINE_ADD', 1000, 'goodwill', 'ticket_42']]);
    const snapshots = await rows<{ version: number; total: number; credit: number; pending: number }>(
      t.database.db,
      sql`select version, (snapshot->>'total')::int as total, (snapshot->>'credit_line_total')::int as credit,
            (snapshot->'summary'->>'pending_difference')::int as pending
          from order_versions where order_id = ${order.id} order by version`,
    );
    expect(snapshots).toEqual([
      { version: 1, total: 4500, credit: 0, pending: 0 },
      { version: 2, total: 6000, credit: 0, pending: 1500 },
      { version: 3, total: 5000, credit: 1000, pending: 500 },
    ]);
    // Medusa emits no event for a credit line.
    expect(await orderEventNames(t, order.id)).not.toContain('order.credit_line_created');

    // Settled by the lines: with every unit fulfilled the order completes.
    await adminOk(t, `/admin/orders/${order.id}/fulfillments`, {
      items: [{ item_id: order.items[0].id, quantity: 4 }],
    });
    expect((await adminOk(t, `/admin/orders/${order.id}/complete`, {})).order.status).toBe('completed');
  }, 120_000);

  it('a negative line settles what the shop owes; the order-level total ignores a negative sum as Medusa’s', async () => {
    const order = await editedOrder(2);
    expect((await adminOrder(t, order.id)).summary).toMatchObject({
      current_order_total: 3000,
      pending_difference: -1500,
    });
    await refused(order.id, { amount: 100, reference: 'r', reference_id: 'x' }, 'order_credit_line_amount');
    await refused(order.id, { amount: -1501, reference: 'r', reference_id: 'x' }, 'order_credit_line_amount');

    const { order: after } = await sdk.admin.order.createCreditLine(order.id, {
      amount: -1500,
      reference: 'store_credit',
      reference_id: 'sc_1',
    });
    // Medusa's credit-line totals are all 0 when the lines' sum is not positive.
    expect(after).toMatchObject({
      version: 3,
      total: 3000,
      credit_line_total: 0,
      credit_line_subtotal: 0,
      credit_line_tax_total: 0,
    });
    expect(after.credit_lines?.map((l) => l.amount)).toEqual([-1500]);
    expect(after.summary).toMatchObject({
      current_order_total: 4500,
      accounting_total: 4500,
      credit_line_total: -1500,
      paid_total: 4500,
      refunded_total: 0,
      pending_difference: 0,
    });
  }, 120_000);

  it('refuses a canceled order, an order with another change open, a bad body and an unknown order', async () => {
    const { order } = await placeOrder(t);
    // Uncaptured, the whole total is pending; an open edit refuses the line.
    await sdk.admin.orderEdit.initiateRequest({ order_id: order.id });
    let held = await state(order.id);
    await refused(order.id, { amount: 100, reference: 'r', reference_id: 'x' }, 'order_change_not_active');
    expect(await state(order.id)).toEqual(held);
    await sdk.admin.orderEdit.cancelRequest(order.id);

    for (const body of [
      {},
      { amount: '100', reference: 'r', reference_id: 'x' },
      { amount: 100, reference: 'r' },
      { amount: 100, reference: '', reference_id: 'x' },
      { amount: 100, reference: 'r', reference_id: 'x', order_id: order.id },
    ]) {
      const bad = await t.admin('POST', `/admin/orders/${order.id}/credit-lines`, body as never);
      expect(bad.statusCode, JSON.stringify(body)).toBe(400);
      expect(bad.json()).toMatchObject({ type: 'invalid_data' });
    }

    await adminOk(t, `/admin/orders/${order.id}/cancel`, {});
    held = await state(order.id);
    const canceled = await refused(order.id, { amount: 100, reference: 'r', reference_id: 'x' }, 'order_canceled');
    expect(canceled.type).toBe('not_allowed');
    expect(await state(order.id)).toEqual(held);

    const missing = await t.admin('POST', '/admin/orders/order_missing/credit-lines', {
      amount: 100,
      reference: 'r',
      reference_id: 'x',
    });
    expect(missing.statusCode).toBe(404);
  }, 120_000);
});
