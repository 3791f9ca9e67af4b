import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { medusaSdks, type Sdk } from '../../../test/medusa-sdk.ts';
import { rows } from '../../platform/db/database.ts';
import { makeProduct, makeRegion, stockOf } from '../checkout/checkout.testing.ts';
import { adminOk, adminOrder, orderEventNames, placeOrder } from '../orders/orders.testing.ts';

let t: TestApp;
let sdk: Sdk;

beforeAll(async () => {
  t = await startTestApp();
  await makeRegion(t);
  sdk = (await medusaSdks(t)).dashboard;
});
afterAll(() => t.close());

const changeRows = async (orderId: string) =>
  (
    await rows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from order_change_actions where order_id = ${orderId}`,
    )
  )[0].n;

describe('order edits through the Medusa SDK', () => {
  it('adds and changes items, previews the difference, confirms once into a new version with stock following', async () => {
    const { order, variants } = await placeOrder(t);
    const line = order.items[0];
    await adminOk(t, `/admin/orders/${order.id}/capture`);
    await adminOk(t, `/admin/orders/${order.id}/fulfillments`, { items: [{ item_id: line.id, quantity: 1 }] });
    const extra = (await makeProduct(t)).variant;
    const stockA = await stockOf(t, variants[0].id);
    const stockB = await stockOf(t, extra.id);

    const { order_change } = await sdk.admin.orderEdit.initiateRequest({ order_id: order.id });
    expect(order_change).toMatchObject({ change_type: 'edit', status: 'pending', version: 2 });
    const added = await sdk.admin.orderEdit.addItems(order.id, { items: [{ variant_id: extra.id, quantity: 2 }] });
    expect(added.order_preview.items).toHaveLength(2);
    expect(added.order_preview.summary.pending_difference).toBe(3000);
    const below = await t.admin('POST', `/admin/order-edits/${order.id}/items/item/${line.id}`, { quantity: 0 });
    expect(below.statusCode).toBe(400);
    expect(below.json().message).toMatch(/cannot be lower than 1/);
    const changed = await sdk.admin.orderEdit.updateOriginalItem(order.id, line.id, { quantity: 2 });
    expect(changed.order_preview.summary).toMatchObject({ current_order_total: 6000, pending_difference: 1500 });
    const preview = await sdk.admin.order.retrievePreview(order.id);
    expect(preview.order.items.find((i) => i.id === line.id)?.quantity).toBe(2);
    // Nothing moved before confirmation.
    expect((await adminOrder(t, order.id)).total).toBe(4500);
    expect(await stockOf(t, extra.id)).toBe(stockB);

    await sdk.admin.orderEdit.request(order.id);
    // Two operators confirm at once: one wins, the other is refused and writes nothing.
    const both = await Promise.all([1, 2].map(() => t.admin('POST', `/admin/order-edits/${order.id}/confirm`, {})));
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    expect(both.find((r) => r.statusCode === 400)!.json()).toMatchObject({ type: 'not_allowed' });
    const detail = await adminOrder(t, order.id);
    expect(detail).toMatchObject({ version: 2, total: 6000, fulfillment_status: 'partially_fulfilled' });
    expect(detail.summary).toMatchObject({
      original_order_total: 4500,
      current_order_total: 6000,
      paid_total: 4500,
      pending_difference: 1500,
    });
    expect(await stockOf(t, extra.id)).toBe(stockB - 2);
    expect(await stockOf(t, variants[0].id)).toBe(stockA + 1);
    expect((await orderEventNames(t, order.id)).filter((n) => n === 'order.edit_confirmed')).toHaveLength(1);
    const { order_changes } = await sdk.admin.order.listChanges(order.id);
    expect(order_changes.map((c) => [c.change_type, c.status])).toEqual([['edit', 'confirmed']]);
    expect(order_changes[0].actions.map((a) => a.action).sort()).toEqual(['ITEM_ADD', 'ITEM_UPDATE']);
  }, 120_000); // some thirty requests in a row: a busy shared machine needs more than the default

  it('cancels an edit with nothing applied; refuses edits of a canceled order', async () => {
    const { order } = await placeOrder(t);
    await sdk.admin.orderEdit.initiateRequest({ order_id: order.id });
    await sdk.admin.orderEdit.updateOriginalItem(order.id, order.items[0].id, { quantity: 1 });
    const actions = await changeRows(order.id);
    const dropped = await sdk.admin.orderEdit.cancelRequest(order.id);
    expect(dropped).toMatchObject({ id: order.id, object: 'order-edit', deleted: true });
    expect((await adminOrder(t, order.id)).total).toBe(4500);
    expect(await changeRows(order.id)).toBe(actions);
    await adminOk(t, `/admin/orders/${order.id}/cancel`);
    const refused = await t.admin('POST', '/admin/order-edits', { order_id: order.id });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ type: 'not_allowed' });
  });
});
