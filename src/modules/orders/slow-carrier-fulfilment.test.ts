import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startParceloShop, type ParceloShop } from '../fulfillment/parcelo.testing.ts';

// biome-ignore lint/suspicious/noExplicitAny: answers read as JSON
type Json = any;

/**
 * The carrier is asked with the order unlocked (fulfil-through-carrier.ts): the Parcelo stand-in
 * holds its label request until the test releases it, and meanwhile the order takes other writes;
 * a second fulfilment of the same units is refused while the first is pending; a carrier that
 * refuses leaves nothing behind; a carrier that does not answer in time is asked again with the
 * same idempotency key, so the retry gets the first label rather than a second.
 */

let shop: ParceloShop;
beforeAll(async () => {
  shop = await startParceloShop();
}, 300_000);
afterAll(() => shop?.close());

/** The carrier's shipments asked for this order (whatever became of the fulfilment). */
function shipmentsOf(order: Json) {
  const refs = new Set(
    shop.parcelo.requests
      .filter((r) => r.path === '/v1/shipments' && [order.display_id, order.id].includes(r.body.order_reference))
      .map((r) => r.body.reference),
  );
  return [...shop.parcelo.shipments.values()].filter((s) => refs.has(s.reference));
}

const placed = (quantity: number): Promise<Json> => shop.placeOrder(quantity);

const fulfil = (order: Json, quantity: number) =>
  shop.t.admin('POST', `/admin/orders/${order.id}/fulfillments`, { items: [{ id: order.items[0].id, quantity }] });

const orderNow = async (id: string) => (await shop.t.admin('GET', `/admin/orders/${id}`)).json().order;

describe('fulfilment with a slow carrier', () => {
  it('another write to the order finishes while the carrier makes the label; a second fulfilment of the units waits its turn', async () => {
    const { t, parcelo } = shop;
    const order = await placed(2);
    const slow = parcelo.hold('/v1/shipments');
    const finished: string[] = [];
    const fulfilling = fulfil(order, 2).then((res) => {
      finished.push('fulfilment');
      return res;
    });
    await slow.arrived;
    const note = await t.admin('POST', `/admin/orders/${order.id}`, { metadata: { note: 'leave at the door' } });
    finished.push('order update');
    expect(note.statusCode, note.body).toBe(200);
    // Meanwhile the pending fulfilment is not one of the order's yet, and holds its units.
    expect(note.json().order.fulfillments).toEqual([]);
    const twice = await fulfil(order, 1);
    expect(twice.statusCode, twice.body).toBe(409);
    expect(twice.json()).toMatchObject({ code: 'fulfillment_units_pending' });

    slow.release();
    const done = await fulfilling;
    expect(finished).toEqual(['order update', 'fulfilment']);
    expect(done.statusCode, done.body).toBe(200);
    const [f] = done.json().order.fulfillments;
    expect(f.labels).toHaveLength(1);
    expect(done.json().order).toMatchObject({
      fulfillment_status: 'fulfilled',
      metadata: { note: 'leave at the door' },
    });
    expect(shipmentsOf(order)).toHaveLength(1);
  });

  it('a carrier that refuses leaves nothing half-written: no fulfilment, no units held, stock and status as before', async () => {
    const order = await placed(2);
    const before = await orderNow(order.id);
    await shop.configure('pk_wrong');
    const refused = await fulfil(order, 2);
    await shop.configure(shop.parcelo.apiKey);
    expect(refused.statusCode).toBe(502);
    expect(refused.json()).toMatchObject({ code: 'fulfillment_provider_failed' });
    const after = await orderNow(order.id);
    expect(after.fulfillments).toEqual([]);
    expect(after.fulfillment_status).toBe(before.fulfillment_status);
    expect(after.items[0].detail?.fulfilled_quantity ?? after.items[0].fulfilled_quantity).toBe(0);
    // The units are free again: fulfilling them now works, with one label.
    const ok = await fulfil(order, 2);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(shipmentsOf(order)).toHaveLength(1);
  });

  it('a double submit makes one fulfilment and one label', async () => {
    const order = await placed(3);
    const [a, b] = await Promise.all([fulfil(order, 3), fulfil(order, 3)]);
    const refused = a.statusCode === 200 ? b : a;
    expect([a.statusCode, b.statusCode]).toContain(200);
    // While the first is with the carrier the second meets its pending units (409); on a slow
    // machine the first may have finished before the second looked: nothing left to fulfil (400).
    const expected = { fulfillment_units_pending: 409, fulfillment_quantity_exceeded: 400 };
    const code = refused.json().code as keyof typeof expected;
    expect(Object.keys(expected)).toContain(code);
    expect(refused.statusCode).toBe(expected[code]);
    expect((await orderNow(order.id)).fulfillments).toHaveLength(1);
    expect(shipmentsOf(order)).toHaveLength(1);
  });

  it('a carrier that does not answer in time: the same units sent again get the first label, not a second', async () => {
    const order = await placed(1);
    const timedOut = await shop.timeOutOnce('/v1/shipments', () => fulfil(order, 1));
    expect(timedOut.statusCode, timedOut.body).toBe(504);
    expect(timedOut.json()).toMatchObject({ code: 'fulfillment_provider_timeout' });
    // The carrier made its label after all; the retry carries the same idempotency key.
    await expect.poll(() => shipmentsOf(order).length).toBe(1);
    const retry = await fulfil(order, 1);
    expect(retry.statusCode, retry.body).toBe(200);
    const [f] = retry.json().order.fulfillments;
    const [shipment] = shipmentsOf(order);
    expect(shipmentsOf(order)).toHaveLength(1);
    expect(f.id).toBe(shipment.reference);
    expect(f.labels[0].tracking_number).toBe(shipment.tracking_number);
  });

  it("a fulfilment left unanswered and never sent again: none of the order's; dropped once no retry can take it over", async () => {
    const { t } = shop;
    const attempts = async (orderId: string) =>
      (
        await t.database.db.execute(
          sql`select id from fulfillments where order_id = ${orderId} and carrier_pending is not null`,
        )
      ).rows;
    const order = await placed(2);
    const timedOut = await shop.timeOutOnce('/v1/shipments', () => fulfil(order, 2));
    expect(timedOut.statusCode, timedOut.body).toBe(504);
    await expect.poll(() => shipmentsOf(order).length).toBe(1);
    const [shipment] = shipmentsOf(order);
    // Not a fulfilment of the order: not listed, not counted, not to be shipped or canceled by its id.
    const after = await orderNow(order.id);
    expect(after.fulfillments).toEqual([]);
    expect(after.fulfillment_status).toBe('not_fulfilled');
    const ship = await t.admin('POST', `/admin/fulfillments/${shipment.reference}/shipment`, { labels: [] });
    expect(ship.statusCode, ship.body).toBe(404);
    const cancel = await t.admin('POST', `/admin/fulfillments/${shipment.reference}/cancel`);
    expect(cancel.statusCode, cancel.body).toBe(404);
    expect(await attempts(order.id)).toHaveLength(1);

    // Other units fulfilled instead (one of the two): the attempt for two can never be retried, so it goes.
    const one = await fulfil(order, 1);
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json().order.fulfillments).toHaveLength(1);
    expect(one.json().order.fulfillments[0].id).not.toBe(shipment.reference);
    expect(await attempts(order.id)).toEqual([]);

    // The order canceled: an attempt that could still be retried goes with it.
    const other = await placed(1);
    expect((await shop.timeOutOnce('/v1/shipments', () => fulfil(other, 1))).statusCode).toBe(504);
    expect(await attempts(other.id)).toHaveLength(1);
    const canceled = await t.admin('POST', `/admin/orders/${other.id}/cancel`);
    expect(canceled.statusCode, canceled.body).toBe(200);
    expect(await attempts(other.id)).toEqual([]);
  });

  it('the order canceled while the carrier was asked: the fulfilment is refused and its label canceled at the carrier', async () => {
    const { t, parcelo } = shop;
    const order = await placed(1);
    const slow = parcelo.hold('/v1/shipments');
    const fulfilling = fulfil(order, 1);
    await slow.arrived;
    const canceled = await t.admin('POST', `/admin/orders/${order.id}/cancel`);
    expect(canceled.statusCode, canceled.body).toBe(200);
    slow.release();
    const refused = await fulfilling;
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'order_canceled' });
    expect((await orderNow(order.id)).fulfillments).toEqual([]);
    const [shipment] = shipmentsOf(order);
    expect(shipment?.status).toBe('canceled');
  });
  it('canceling at a slow carrier: the order takes other writes, no shipment meanwhile; then it is canceled', async () => {
    const { t, parcelo } = shop;
    const order = await placed(1);
    const made = await fulfil(order, 1);
    expect(made.statusCode, made.body).toBe(200);
    const [f] = made.json().order.fulfillments;
    const slow = parcelo.hold(`/v1/shipments/${f.data.shipment_id}/cancel`);
    const canceling = t.admin('POST', `/admin/orders/${order.id}/fulfillments/${f.id}/cancel`);
    await slow.arrived;
    const note = await t.admin('POST', `/admin/orders/${order.id}`, { metadata: { note: 'changed our mind' } });
    expect(note.statusCode, note.body).toBe(200);
    const ship = await t.admin('POST', `/admin/orders/${order.id}/fulfillments/${f.id}/shipments`, {});
    expect(ship.statusCode, ship.body).toBe(409);
    expect(ship.json()).toMatchObject({ code: 'fulfillment_cancel_pending' });
    slow.release();
    const canceled = await canceling;
    expect(canceled.statusCode, canceled.body).toBe(200);
    expect(canceled.json().order.fulfillments[0].canceled_at).not.toBeNull();
    expect(parcelo.shipments.get(f.data.shipment_id)?.status).toBe('canceled');
  });

  it('a carrier that refuses the cancellation leaves the fulfilment as it was: it ships afterwards', async () => {
    const { t, parcelo } = shop;
    const order = await placed(1);
    const [f] = (await fulfil(order, 1)).json().order.fulfillments;
    await shop.configure('pk_wrong');
    const refused = await t.admin('POST', `/admin/orders/${order.id}/fulfillments/${f.id}/cancel`);
    await shop.configure(parcelo.apiKey);
    expect(refused.statusCode).toBe(502);
    const after = await orderNow(order.id);
    expect(after.fulfillments).toEqual([expect.objectContaining({ id: f.id, canceled_at: null })]);
    const ship = await t.admin('POST', `/admin/orders/${order.id}/fulfillments/${f.id}/shipments`, {});
    expect(ship.statusCode, ship.body).toBe(200);
  });
});
