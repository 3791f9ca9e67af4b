import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startParceloShop, type ParceloShop } from '../fulfillment/parcelo.testing.ts';

// biome-ignore lint/suspicious/noExplicitAny: answers read as JSON
type Json = any;

/**
 * The return leg of an exchange or a claim by a `calculated` return option is priced by its
 * carrier (the Parcelo plugin against its local stand-in) for the items asked back, as a return's
 * is, and the carrier is asked with the order unlocked.
 */

let shop: ParceloShop;
let calculated: Json;
const rate = (units: number) => shop.rate(units);
const rateAsks = () => shop.rateAsks();
const inbound = (answer: Json) =>
  answer.order_preview.order_change.actions.find(
    (a: Json) => a.action === 'SHIPPING_ADD' && (a.details.direction ?? 'inbound') === 'inbound',
  );

beforeAll(async () => {
  shop = await startParceloShop();
  calculated = await shop.makeReturnOption('calculated');
}, 300_000);
afterAll(() => shop?.close());

const fulfilledOrder = (quantity: number) => shop.fulfilledOrder(quantity);

describe('the return leg of an exchange or a claim priced by the carrier', () => {
  it('an exchange: the carrier quotes the items asked back, with the order unlocked meanwhile', async () => {
    const { t, parcelo } = shop;
    const order = await fulfilledOrder(2);
    const { exchange } = (await t.admin('POST', '/admin/exchanges', { order_id: order.id })).json();
    const items = await t.admin('POST', `/admin/exchanges/${exchange.id}/inbound/items`, {
      items: [{ id: order.items[0].id, quantity: 2 }],
    });
    expect(items.statusCode, items.body).toBe(200);

    // An operator's custom amount is not the carrier's to price.
    const before = rateAsks().length;
    const custom = await t.admin('POST', `/admin/exchanges/${exchange.id}/inbound/shipping-method`, {
      shipping_option_id: calculated.id,
      custom_amount: 0,
    });
    expect(custom.statusCode, custom.body).toBe(200);
    expect(inbound(custom.json())).toMatchObject({ amount: 0 });
    expect(rateAsks().length).toBe(before);

    const slow = parcelo.hold('/v1/rates');
    const adding = t.admin('POST', `/admin/exchanges/${exchange.id}/inbound/shipping-method`, {
      shipping_option_id: calculated.id,
    });
    await slow.arrived;
    // The carrier has not answered: the order is not locked, another write to it goes through.
    const note = await t.admin('POST', `/admin/orders/${order.id}`, { metadata: { note: 'exchange coming' } });
    expect(note.statusCode, note.body).toBe(200);
    slow.release();
    const added = await adding;
    expect(added.statusCode, added.body).toBe(200);
    expect(inbound(added.json())).toMatchObject({ amount: rate(2) });
    expect(rateAsks().length).toBe(before + 1);
    expect(rateAsks().at(-1)?.body).toMatchObject({
      service: 'parcel-return',
      parcels: [{ quantity: 2 }],
      currency: 'eur',
    });
    const out = await t.admin('POST', `/admin/exchanges/${exchange.id}/outbound/items`, {
      items: [{ variant_id: order.items[0].variant_id, quantity: 1 }],
    });
    expect(out.statusCode, out.body).toBe(200);
    const requested = await t.admin('POST', `/admin/exchanges/${exchange.id}/request`, {});
    expect(requested.statusCode, requested.body).toBe(200);
    expect(requested.json().return.shipping_methods).toEqual([
      expect.objectContaining({ shipping_option_id: calculated.id, amount: rate(2) }),
    ]);
  }, 120_000);

  it('a claim: priced for its items; a carrier that refuses writes no return shipping', async () => {
    const { t, parcelo } = shop;
    const order = await fulfilledOrder(1);
    const { claim } = (await t.admin('POST', '/admin/claims', { order_id: order.id, type: 'refund' })).json();
    const items = await t.admin('POST', `/admin/claims/${claim.id}/inbound/items`, {
      items: [{ id: order.items[0].id, quantity: 1 }],
    });
    expect(items.statusCode, items.body).toBe(200);

    await shop.configure('pk_wrong');
    const refused = await t.admin('POST', `/admin/claims/${claim.id}/inbound/shipping-method`, {
      shipping_option_id: calculated.id,
    });
    await shop.configure(parcelo.apiKey);
    expect(refused.statusCode).toBe(502);
    expect(refused.json()).toMatchObject({ code: 'fulfillment_provider_failed' });
    const preview = (await t.admin('GET', `/admin/orders/${order.id}/preview`)).json().order;
    expect(inbound({ order_preview: preview })).toBeUndefined();

    const added = await t.admin('POST', `/admin/claims/${claim.id}/inbound/shipping-method`, {
      shipping_option_id: calculated.id,
    });
    expect(added.statusCode, added.body).toBe(200);
    expect(inbound(added.json())).toMatchObject({
      amount: rate(1),
      details: expect.objectContaining({ shipping_option_id: calculated.id }),
    });
  }, 120_000);
});
