import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startParceloShop, type ParceloShop } from '../fulfillment/parcelo.testing.ts';
import { uniq } from './checkout.testing.ts';

// biome-ignore lint/suspicious/noExplicitAny: answers read as JSON
type Json = any;

/**
 * A slow carrier must not hold the cart: the Parcelo stand-in holds its rate quote (until the
 * test releases it) while the shopper's other requests on the same cart go through; the method
 * is then written with the quote, or quoted again when the cart changed meanwhile.
 */

let shop: ParceloShop;
beforeAll(async () => {
  shop = await startParceloShop();
}, 300_000);
afterAll(() => shop?.close());

const rate = (units: number) => shop.rate(units);
const quotes = () => shop.rateAsks().length;

async function cartOf(quantity: number): Promise<Json> {
  const res = await shop.t.store('POST', '/store/carts', {
    region_id: shop.region.id,
    email: `slow-${uniq()}@example.com`,
    items: [{ variant_id: shop.variantId, quantity }],
    shipping_address: {
      address_1: 'Hafenstraße 1',
      city: 'Hamburg',
      postal_code: '20095',
      country_code: shop.region.countries[0].iso_2,
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().cart;
}

describe('a slow carrier and the cart lock', () => {
  it('another request on the cart completes while the carrier is still quoting; the method then takes the quote', async () => {
    const { t, parcelo, option } = shop;
    const cart = await cartOf(2);
    const finished: string[] = [];
    const slow = parcelo.hold('/v1/rates');
    const adding = t.store('POST', `/store/carts/${cart.id}/shipping-methods`, { option_id: option.id }).then((res) => {
      finished.push('shipping method');
      return res;
    });
    await slow.arrived;
    // The carrier has not answered: the cart is not locked, so this goes through now.
    const other = await t.store('POST', `/store/carts/${cart.id}`, { email: 'changed@example.com' });
    finished.push('other request');
    expect(other.statusCode, other.body).toBe(200);
    const before = quotes();
    slow.release();
    const added = await adding;
    expect(finished).toEqual(['other request', 'shipping method']);
    expect(added.statusCode, added.body).toBe(200);
    // An email is not what the carrier priced: its quote stands, asked once.
    expect(quotes()).toBe(before);
    expect(added.json().cart).toMatchObject({ email: 'changed@example.com' });
    expect(added.json().cart.shipping_methods).toEqual([
      expect.objectContaining({ shipping_option_id: option.id, amount: rate(2) }),
    ]);
  });

  it('items changed while quoting: the carrier is asked again under the new cart, and its new price is kept', async () => {
    const { t, parcelo, option } = shop;
    const cart = await cartOf(2);
    const slow = parcelo.hold('/v1/rates');
    const adding = t.store('POST', `/store/carts/${cart.id}/shipping-methods`, { option_id: option.id });
    await slow.arrived;
    const more = await t.store('POST', `/store/carts/${cart.id}/line-items/${cart.items[0].id}`, { quantity: 3 });
    expect(more.statusCode, more.body).toBe(200);
    const before = quotes();
    slow.release();
    const added = await adding;
    expect(added.statusCode, added.body).toBe(200);
    expect(quotes()).toBe(before + 1);
    expect(parcelo.requests.filter((r) => r.path === '/v1/rates').at(-1)?.body).toMatchObject({
      parcels: [{ quantity: 3 }],
    });
    expect(added.json().cart.shipping_methods).toEqual([
      expect.objectContaining({ shipping_option_id: option.id, amount: rate(3) }),
    ]);
  });
});
