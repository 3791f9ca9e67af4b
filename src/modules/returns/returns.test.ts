import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { medusaSdks, type Sdk } from '../../../test/medusa-sdk.ts';
import { rows } from '../../platform/db/database.ts';
import { makeRegion, stockOf, uniq } from '../checkout/checkout.testing.ts';
import { bearer, signUpCustomer } from '../customers/customers.testing.ts';
import { adminOrder, orderEventNames, placeOrder, placeFulfilledOrder } from '../orders/orders.testing.ts';
import { shippingOption } from '../cart-pricing/pricing.testing.ts';

let t: TestApp;
let sdk: Sdk;
let region: { id: string };

beforeAll(async () => {
  t = await startTestApp();
  region = await makeRegion(t);
  sdk = (await medusaSdks(t)).dashboard;
});
afterAll(() => t.close());

const returnOption = async (amount = 500) => (await shippingOption(t, region.id, amount, 'Return')).id;

const countOf = async (table: string) =>
  (await rows<{ n: number }>(t.database.db, sql`select count(*)::int as n from ${sql.identifier(table)}`))[0].n;

describe('return reasons', () => {
  it('nest under a parent, list for the store, and delete softly', async () => {
    const parent = (await sdk.admin.returnReason.create({ value: `wrong-${uniq()}`, label: 'Wrong item' }))
      .return_reason;
    const child = (
      await sdk.admin.returnReason.create({
        value: `size-${uniq()}`,
        label: 'Wrong size',
        parent_return_reason_id: parent.id,
      } as never)
    ).return_reason as unknown as { id: string; parent_return_reason: { id: string } };
    expect(child.parent_return_reason.id).toBe(parent.id);
    const again = await sdk.admin.returnReason.retrieve(parent.id);
    expect(
      (again.return_reason as unknown as { return_reason_children: { id: string }[] }).return_reason_children,
    ).toEqual([expect.objectContaining({ id: child.id })]);
    const dup = await t.admin('POST', '/admin/return-reasons', { value: parent.value, label: 'x' });
    expect(dup.statusCode).toBe(422);
    const cycle = await t.admin('POST', `/admin/return-reasons/${parent.id}`, { parent_return_reason_id: child.id });
    expect(cycle.statusCode).toBe(400);
    const store = await t.store('GET', '/store/return-reasons');
    expect(store.statusCode, store.body).toBe(200);
    expect(store.json().return_reasons.map((r: { id: string }) => r.id)).toContain(child.id);
    await sdk.admin.returnReason.delete(child.id);
    expect((await t.admin('GET', `/admin/return-reasons/${child.id}`)).statusCode).toBe(404);
  });
});

describe('admin returns through the Medusa SDK', () => {
  it('requests, receives partly sellable partly damaged, restocks the sellable, and refunds the difference', async () => {
    const { order, line, variants, paymentId } = await placeFulfilledOrder(t);
    const stockBefore = await stockOf(t, variants[0].id);
    const reason = (await sdk.admin.returnReason.create({ value: `broken-${uniq()}`, label: 'Broken' })).return_reason;
    const optionId = await returnOption(500);

    const started = await sdk.admin.return.initiateRequest({ order_id: order.id });
    const returnId = started.return.id;
    expect(started.return.status).toBe('open');
    const asked = await sdk.admin.return.addReturnItem(returnId, {
      items: [{ id: line.id, quantity: 2, reason_id: reason.id, description: 'arrived scratched' } as never],
    });
    expect(
      (asked as unknown as { order_preview: { items: { actions: unknown[] }[] } }).order_preview.items[0].actions,
    ).toEqual([expect.objectContaining({ action: 'RETURN_ITEM', details: expect.objectContaining({ quantity: 2 }) })]);
    const tooMany = await t.admin('POST', `/admin/returns/${returnId}/request-items`, {
      items: [{ id: line.id, quantity: 2 }],
    });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().type).toBe('invalid_data');
    await sdk.admin.return.addReturnShipping(returnId, { shipping_option_id: optionId });
    const requested = await sdk.admin.return.confirmRequest(returnId, {});
    expect(requested.return).toMatchObject({
      status: 'requested',
      items: [
        expect.objectContaining({ item_id: line.id, quantity: 2, reason_id: reason.id, note: 'arrived scratched' }),
      ],
    });
    // The shopper owes the return shipping until the parcel arrives.
    let detail = await adminOrder(t, order.id);
    expect(detail.version).toBe(2);
    expect(detail.summary).toMatchObject({ paid_total: 4500, current_order_total: 5000, pending_difference: 500 });
    // Asked back, not arrived: what the desk's return form takes off what can still be returned.
    expect(detail.items[0].detail).toMatchObject({ return_requested_quantity: 2, returned_quantity: 0 });

    await sdk.admin.return.initiateReceive(returnId, {});
    await sdk.admin.return.receiveItems(returnId, { items: [{ id: line.id, quantity: 1 }] });
    await sdk.admin.return.dismissItems(returnId, { items: [{ id: line.id, quantity: 1 }] });
    const received = await sdk.admin.return.confirmReceive(returnId, {});
    expect(received.return).toMatchObject({
      status: 'received',
      refund_amount: 2500,
      items: [expect.objectContaining({ received_quantity: 1, damaged_quantity: 1 })],
    });
    expect(await stockOf(t, variants[0].id)).toBe(stockBefore + 1);
    detail = await adminOrder(t, order.id);
    expect(detail.version).toBe(3);
    expect(detail.items[0].detail).toMatchObject({ returned_quantity: 2, return_requested_quantity: 0 });
    expect(detail.summary).toMatchObject({
      original_order_total: 4500,
      current_order_total: 2000,
      paid_total: 4500,
      refunded_total: 0,
      pending_difference: -2500,
    });

    // A receipt confirmed twice: refused, nothing written.
    const events = await orderEventNames(t, order.id);
    const again = await t.admin('POST', `/admin/returns/${returnId}/receive/confirm`, {});
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ type: 'not_allowed' });
    const restart = await t.admin('POST', `/admin/returns/${returnId}/receive`, {});
    expect(restart.statusCode).toBe(400);
    expect(await stockOf(t, variants[0].id)).toBe(stockBefore + 1);
    expect(await orderEventNames(t, order.id)).toEqual(events);

    // The difference goes back through the payment provider, once.
    const over = await t.admin('POST', `/admin/payments/${paymentId}/refund`, { amount: 4501 });
    expect(over.statusCode).toBe(400);
    expect(over.json()).toMatchObject({ type: 'not_allowed' });
    await sdk.admin.payment.refund(paymentId, { amount: 2500 });
    detail = await adminOrder(t, order.id);
    expect(detail.summary).toMatchObject({
      paid_total: 4500,
      refunded_total: 2500,
      transaction_total: 2000,
      pending_difference: 0,
    });
    expect(detail.transactions.map((x: { amount: number; reference: string }) => [x.reference, x.amount])).toEqual([
      ['capture', 4500],
      ['refund', -2500],
    ]);
    expect(events).toEqual(expect.arrayContaining(['order.return_requested', 'order.return_received']));

    const changes = await sdk.admin.order.listChanges(order.id);
    expect(changes.order_changes.map((c) => [c.change_type, c.status, c.version])).toEqual([
      ['return_request', 'confirmed', 2],
      ['return_receive', 'confirmed', 3],
    ]);
    // The versions the order left are kept as they were.
    const versions = await rows<{ version: number; snapshot: { total: number; version: number } }>(
      t.database.db,
      sql`select version, snapshot from order_versions where order_id = ${order.id} order by version`,
    );
    expect(versions.map((v) => [v.version, v.snapshot.version])).toEqual([
      [1, 1],
      [2, 2],
    ]);
    const completed = await sdk.admin.order.complete(order.id, {} as never);
    expect(completed.order.status).toBe('completed');
    const archived = await sdk.admin.order.archive(order.id);
    expect(archived.order.status).toBe('archived');
    const listed = await t.admin('GET', '/admin/orders?status=archived');
    expect(listed.json().orders.map((o: { id: string }) => o.id)).toContain(order.id);
  }, 120_000); // some thirty requests in a row: a busy shared machine needs more than the default

  it('a return can be dropped while requested; an order with nothing fulfilled returns nothing', async () => {
    const placed = await placeOrder(t);
    const ret = await sdk.admin.return.initiateRequest({ order_id: placed.order.id });
    const nothing = await t.admin('POST', `/admin/returns/${ret.return.id}/request-items`, {
      items: [{ id: placed.order.items[0].id, quantity: 1 }],
    });
    expect(nothing.statusCode).toBe(400);
    const second = await t.admin('POST', '/admin/returns', { order_id: placed.order.id });
    expect(second.statusCode).toBe(400);
    const dropped = await sdk.admin.return.cancelRequest(ret.return.id);
    expect(dropped).toMatchObject({ id: ret.return.id, deleted: true });
    const preview = await sdk.admin.order.retrievePreview(placed.order.id);
    expect(preview.order.order_change).toBeNull();
  });
});

type Action = {
  id: string;
  action: string;
  amount: number;
  internal_note: string | null;
  details: { quantity?: number };
};
const actionsOf = (answer: unknown) =>
  (answer as { order_preview: { order_change: { actions: Action[] } } }).order_preview.order_change.actions;

describe('changing pending actions through the Medusa SDK', () => {
  it('return shipping, sellable and damaged receipts change in place; too many units are refused', async () => {
    const { order, line } = await placeFulfilledOrder(t);
    const optionId = await returnOption(500);
    const returnId = (await sdk.admin.return.initiateRequest({ order_id: order.id })).return.id;
    await sdk.admin.return.addReturnItem(returnId, { items: [{ id: line.id, quantity: 3 }] });
    const shipped = await sdk.admin.return.addReturnShipping(returnId, { shipping_option_id: optionId });
    const shipping = actionsOf(shipped).find((a) => a.action === 'SHIPPING_ADD')!;
    // A custom price for the return shipping, then the option's own again.
    let changed = await sdk.admin.return.updateReturnShipping(returnId, shipping.id, {
      custom_amount: 200,
      internal_note: 'goodwill',
    });
    expect(actionsOf(changed).find((a) => a.id === shipping.id)).toMatchObject({
      amount: 200,
      internal_note: 'goodwill',
    });
    const pending = (answer: unknown) =>
      (answer as { order_preview: { summary: { pending_difference: number } } }).order_preview.summary
        .pending_difference;
    expect(pending(changed) - pending(shipped)).toBe(-300);
    changed = await sdk.admin.return.updateReturnShipping(returnId, shipping.id, { custom_amount: null } as never);
    expect(actionsOf(changed).find((a) => a.id === shipping.id)).toMatchObject({
      amount: 500,
      internal_note: 'goodwill',
    });
    const requested = await sdk.admin.return.confirmRequest(returnId, {});
    expect((requested.return as unknown as { shipping_methods: unknown[] }).shipping_methods).toEqual([
      expect.objectContaining({ amount: 500 }),
    ]);

    await sdk.admin.return.initiateReceive(returnId, {});
    const received = await sdk.admin.return.receiveItems(returnId, { items: [{ id: line.id, quantity: 1 }] });
    const sellable = actionsOf(received)[0];
    const dismissed = await sdk.admin.return.dismissItems(returnId, { items: [{ id: line.id, quantity: 1 }] });
    const damaged = actionsOf(dismissed).find((a) => a.action === 'RECEIVE_DAMAGED_RETURN_ITEM')!;

    changed = await sdk.admin.return.updateReceiveItem(returnId, sellable.id, { quantity: 2, internal_note: 'two' });
    expect(actionsOf(changed).find((a) => a.id === sellable.id)).toMatchObject({
      action: 'RECEIVE_RETURN_ITEM',
      amount: -3000,
      internal_note: 'two',
      details: expect.objectContaining({ quantity: 2 }),
    });
    // 2 sellable + 1 damaged = the 3 asked back: no room for a second damaged unit.
    const tooMany = await t.admin('POST', `/admin/returns/${returnId}/dismiss-items/${damaged.id}`, { quantity: 2 });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json()).toMatchObject({ code: 'return_receive_exceeds_requested' });
    // Each route changes its own kind of receipt only.
    const wrongKind = await t.admin('POST', `/admin/returns/${returnId}/dismiss-items/${sellable.id}`, { quantity: 1 });
    expect(wrongKind.statusCode).toBe(404);
    expect(wrongKind.json()).toMatchObject({ code: 'return_action_not_found' });
    changed = await sdk.admin.return.updateDismissItem(returnId, damaged.id, { internal_note: 'cracked' } as never);
    expect(actionsOf(changed).find((a) => a.id === damaged.id)).toMatchObject({
      internal_note: 'cracked',
      details: expect.objectContaining({ quantity: 1 }),
    });

    const confirmed = await sdk.admin.return.confirmReceive(returnId, {});
    expect(confirmed.return).toMatchObject({
      status: 'received',
      items: [expect.objectContaining({ received_quantity: 2, damaged_quantity: 1 })],
    });
    // Nothing is pending any more: the update routes refuse.
    const late = await t.admin('POST', `/admin/returns/${returnId}/receive-items/${sellable.id}`, { quantity: 1 });
    expect(late.statusCode).toBe(400);
    expect(late.json()).toMatchObject({ code: 'order_change_not_active' });
  }, 120_000);
});

describe('store returns', () => {
  it("only on one's own order; a guest's with its email", async () => {
    const alice = await signUpCustomer(t);
    const bob = await signUpCustomer(t);
    const mine = await placeFulfilledOrder(t, { headers: bearer(alice.token) });
    const body = { order_id: mine.order.id, items: [{ id: mine.line.id, quantity: 1 }] };
    const before = await countOf('returns');
    for (const headers of [{}, bearer(bob.token)]) {
      const res = await t.store('POST', '/store/returns', body, { headers });
      expect(res.statusCode, res.body).toBe(404);
    }
    expect(await countOf('returns')).toBe(before);
    const ok = await t.store('POST', '/store/returns', body, { headers: bearer(alice.token) });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().return).toMatchObject({ status: 'requested', order_id: mine.order.id });

    const email = `guest-${uniq()}@example.com`;
    const guest = await placeFulfilledOrder(t, { email });
    const guestBody = { order_id: guest.order.id, items: [{ id: guest.line.id, quantity: 3 }] };
    expect((await t.store('POST', '/store/returns', guestBody)).statusCode).toBe(404);
    expect((await t.store('POST', '/store/returns', { ...guestBody, email: 'x@example.com' })).statusCode).toBe(404);
    const byEmail = await t.store('POST', '/store/returns', { ...guestBody, email: email.toUpperCase() });
    expect(byEmail.statusCode, byEmail.body).toBe(200);
  });
});
