import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startParceloShop, type ParceloShop } from '../fulfillment/parcelo.testing.ts';

// biome-ignore lint/suspicious/noExplicitAny: answers read as JSON
type Json = any;

/**
 * The legs of an exchange or a claim by a `calculated` option are priced by their carrier (the
 * Parcelo plugin against its local stand-in): the return leg for the items asked back, as a
 * return's is, the outbound leg for the new items sent; the carrier is asked with the order unlocked.
 */

let shop: ParceloShop;
let calculated: Json;
const rate = (units: number) => shop.rate(units);
const rateAsks = () => shop.rateAsks();
const leg = (direction: 'inbound' | 'outbound') => (answer: Json) =>
  answer.order_preview.order_change.actions.find(
    (a: Json) => a.action === 'SHIPPING_ADD' && (a.details.direction ?? 'inbound') === direction,
  );
const inbound = leg('inbound');
const outbound = leg('outbound');

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

describe('the outbound leg of an exchange or a claim priced by the carrier', () => {
  it('an exchange: the carrier quotes the new items sent, with the order unlocked meanwhile; the difference due counts it', async () => {
    const { t, parcelo, option } = shop;
    const order = await fulfilledOrder(1);
    const { exchange } = (await t.admin('POST', '/admin/exchanges', { order_id: order.id })).json();
    const back = await t.admin('POST', `/admin/exchanges/${exchange.id}/inbound/items`, {
      items: [{ id: order.items[0].id, quantity: 1 }],
    });
    expect(back.statusCode, back.body).toBe(200);
    const out = await t.admin('POST', `/admin/exchanges/${exchange.id}/outbound/items`, {
      items: [{ variant_id: order.items[0].variant_id, quantity: 3 }],
    });
    expect(out.statusCode, out.body).toBe(200);

    // An operator's custom amount is not the carrier's to price.
    const before = rateAsks().length;
    const custom = await t.admin('POST', `/admin/exchanges/${exchange.id}/outbound/shipping-method`, {
      shipping_option_id: option.id,
      custom_amount: 0,
    });
    expect(custom.statusCode, custom.body).toBe(200);
    expect(outbound(custom.json())).toMatchObject({ amount: 0 });
    expect(rateAsks().length).toBe(before);

    const slow = parcelo.hold('/v1/rates');
    const adding = t.admin('POST', `/admin/exchanges/${exchange.id}/outbound/shipping-method`, {
      shipping_option_id: option.id,
    });
    await slow.arrived;
    // The carrier has not answered: the order is not locked, another write to it goes through.
    const note = await t.admin('POST', `/admin/orders/${order.id}`, { metadata: { note: 'new mugs coming' } });
    expect(note.statusCode, note.body).toBe(200);
    slow.release();
    const added = await adding;
    expect(added.statusCode, added.body).toBe(200);
    expect(outbound(added.json())).toMatchObject({ amount: rate(3) });
    expect(rateAsks().length).toBe(before + 1);
    expect(rateAsks().at(-1)?.body).toMatchObject({
      service: 'parcel',
      to: { country: shop.region.countries[0].iso_2.toUpperCase(), postcode: '20095' },
      parcels: [{ quantity: 3 }],
      currency: 'eur',
    });
    // A custom price, then the option's own put back: for a calculated option, the carrier's quote again.
    const leg = outbound(added.json());
    const path = `/admin/exchanges/${exchange.id}/outbound/shipping-method/${leg.id}`;
    expect(outbound((await t.admin('POST', path, { custom_amount: 100 })).json())).toMatchObject({ amount: 100 });
    const restored = await t.admin('POST', path, { custom_amount: null });
    expect(restored.statusCode, restored.body).toBe(200);
    expect(outbound(restored.json())).toMatchObject({ id: leg.id, amount: rate(3) });
    expect(rateAsks().length).toBe(before + 2);

    const requested = await t.admin('POST', `/admin/exchanges/${exchange.id}/request`, {});
    expect(requested.statusCode, requested.body).toBe(200);
    // What the shopper owes: the new items and their shipping at the carrier's price, less the mug sent back.
    const unit = order.items[0].unit_price;
    expect(requested.json().exchange.difference_due).toBe(3 * unit + rate(3) - unit);
  }, 120_000);

  it('a claim: its replacements priced; a carrier that refuses writes no outbound shipping', async () => {
    const { t, parcelo, option } = shop;
    const order = await fulfilledOrder(1);
    const { claim } = (await t.admin('POST', '/admin/claims', { order_id: order.id, type: 'replace' })).json();
    const out = await t.admin('POST', `/admin/claims/${claim.id}/outbound/items`, {
      items: [{ variant_id: order.items[0].variant_id, quantity: 2 }],
    });
    expect(out.statusCode, out.body).toBe(200);

    await shop.configure('pk_wrong');
    const refused = await t.admin('POST', `/admin/claims/${claim.id}/outbound/shipping-method`, {
      shipping_option_id: option.id,
    });
    await shop.configure(parcelo.apiKey);
    expect(refused.statusCode).toBe(502);
    expect(refused.json()).toMatchObject({ code: 'fulfillment_provider_failed' });
    const preview = (await t.admin('GET', `/admin/orders/${order.id}/preview`)).json().order;
    expect(outbound({ order_preview: preview })).toBeUndefined();

    const added = await t.admin('POST', `/admin/claims/${claim.id}/outbound/shipping-method`, {
      shipping_option_id: option.id,
    });
    expect(added.statusCode, added.body).toBe(200);
    expect(outbound(added.json())).toMatchObject({
      amount: rate(2),
      details: expect.objectContaining({ shipping_option_id: option.id }),
    });
  }, 120_000);
});

describe('a leg whose items change after its calculated shipping was chosen', () => {
  it('an exchange: each leg is priced again for its items as they are now; a custom amount stays', async () => {
    const { t, option } = shop;
    const order = await fulfilledOrder(3);
    const { exchange } = (await t.admin('POST', '/admin/exchanges', { order_id: order.id })).json();
    const base = `/admin/exchanges/${exchange.id}`;
    const variant = order.items[0].variant_id;
    await t.admin('POST', `${base}/inbound/items`, { items: [{ id: order.items[0].id, quantity: 1 }] });
    await t.admin('POST', `${base}/outbound/items`, { items: [{ variant_id: variant, quantity: 1 }] });
    await t.admin('POST', `${base}/inbound/shipping-method`, { shipping_option_id: calculated.id });
    const chosen = await t.admin('POST', `${base}/outbound/shipping-method`, { shipping_option_id: option.id });
    expect(inbound(chosen.json())).toMatchObject({ amount: rate(1) });
    expect(outbound(chosen.json())).toMatchObject({ amount: rate(1) });
    const items = (answer: Json, action: string) =>
      answer.order_preview.order_change.actions.filter((a: Json) => a.action === action);

    // Two more mugs back: the return leg is priced for three, the new items' leg as it was.
    const back = await t.admin('POST', `${base}/inbound/items`, { items: [{ id: order.items[0].id, quantity: 2 }] });
    expect(back.statusCode, back.body).toBe(200);
    expect(inbound(back.json())).toMatchObject({ amount: rate(3) });
    expect(outbound(back.json())).toMatchObject({ amount: rate(1) });
    // Two new mugs instead of one, then one of the items asked back removed.
    const [sent] = items(back.json(), 'ITEM_ADD');
    const more = await t.admin('POST', `${base}/outbound/items/${sent.id}`, { quantity: 2 });
    expect(more.statusCode, more.body).toBe(200);
    expect(outbound(more.json())).toMatchObject({ amount: rate(2) });
    const [, second] = items(more.json(), 'RETURN_ITEM');
    const fewer = await t.admin('DELETE', `${base}/inbound/items/${second.id}`);
    expect(fewer.statusCode, fewer.body).toBe(200);
    expect(inbound(fewer.json())).toMatchObject({ amount: rate(1) });
    expect(outbound(fewer.json())).toMatchObject({ amount: rate(2) });

    // The operator's price of the new items' shipping stays when they change.
    const custom = await t.admin('POST', `${base}/outbound/shipping-method/${outbound(fewer.json()).id}`, {
      custom_amount: 0,
    });
    expect(outbound(custom.json())).toMatchObject({ amount: 0 });
    const [line] = items(custom.json(), 'ITEM_ADD');
    const removed = await t.admin('DELETE', `${base}/outbound/items/${line.id}`);
    expect(removed.statusCode, removed.body).toBe(200);
    const added = await t.admin('POST', `${base}/outbound/items`, { items: [{ variant_id: variant, quantity: 3 }] });
    expect(added.statusCode, added.body).toBe(200);
    expect(outbound(added.json())).toMatchObject({ amount: 0 });
    const requested = await t.admin('POST', `${base}/request`, {});
    expect(requested.statusCode, requested.body).toBe(200);
    expect(requested.json().return.shipping_methods).toEqual([
      expect.objectContaining({ shipping_option_id: calculated.id, amount: rate(1) }),
    ]);
  }, 120_000);
});
