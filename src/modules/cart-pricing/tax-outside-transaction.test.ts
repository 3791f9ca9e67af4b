import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { controlledTaxProvider, shopTaxedBy } from './controlled-tax.testing.ts';
import { uniq } from '../checkout/checkout.testing.ts';
import { ok200, pricedProduct } from './pricing.testing.ts';

// biome-ignore lint/suspicious/noExplicitAny: answers read as JSON
type Json = any;

/**
 * The cart's tax provider is asked outside the cart's transaction (tax-answers.ts): a provider
 * whose answers the test holds and watches (a port in the shop's registry, as a plugin's would
 * be) is kept waiting while another request changes the cart; the checkout then asks it again
 * about the changed cart and places the order with that answer. A cart that changes at every ask
 * gives up after five with a 503.
 */

const ID = 'tp_controlled';
const controlled = controlledTaxProvider(ID, 'Controlled tax service');
const { asked, holdNextAsk } = controlled;

let t: TestApp;
let regionId: string;
let variantId: string;

beforeAll(async () => {
  t = await startTestApp();
  const shop = await shopTaxedBy(t, controlled);
  regionId = shop.region.id;
  variantId = shop.variantId;
}, 120_000);
afterAll(() => t?.close());

async function cartOf(quantity: number): Promise<Json> {
  const { cart } = await ok200(
    await t.store('POST', '/store/carts', {
      region_id: regionId,
      email: `tax-${uniq()}@example.com`,
      items: [{ variant_id: variantId, quantity }],
    }),
  );
  return cart;
}

const asksAbout = (cartId: string) => asked.filter((a) => (a.cart as Json).id === cartId);

describe('the tax provider and the cart transaction', () => {
  it('a cart change goes through while the provider is asked; the checkout asks again and takes the new answer', async () => {
    const cart = await cartOf(2);
    expect(cart.tax_total).toBe(200);
    const slow = holdNextAsk();
    const finished: string[] = [];
    const completing = t.store('POST', `/store/carts/${cart.id}/complete`).then((res) => {
      finished.push('complete');
      return res;
    });
    await slow.arrived;
    // The provider has not answered the checkout: the cart is not locked, so this goes through.
    const more = await t.store('POST', `/store/carts/${cart.id}/line-items/${cart.items[0].id}`, { quantity: 3 });
    finished.push('line item');
    expect(more.statusCode, more.body).toBe(200);
    expect(more.json().cart.tax_total).toBe(300);
    const before = asksAbout(cart.id).length;
    slow.release();
    const done = await completing;
    expect(finished).toEqual(['line item', 'complete']);
    expect(done.json().type, done.body).toBe('order');
    const order = done.json().order;
    expect(order.items[0].quantity).toBe(3);
    expect(order.tax_total).toBe(300);
    // The held answer was about two units: the checkout asked once more, about three.
    expect(asksAbout(cart.id).length).toBe(before + 1);
    expect(asksAbout(cart.id).at(-1)?.items).toEqual([expect.objectContaining({ quantity: 3 })]);
  });

  it('an unchanged cart is asked about once by the checkout, with no transaction open', async () => {
    const cart = await cartOf(1);
    // A new line gets a new id each time its transaction runs: the same question all the same.
    const added = await t.store('POST', `/store/carts/${cart.id}/line-items`, {
      variant_id: (await pricedProduct(t, 500)).variants[0].id,
      quantity: 1,
    });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json().cart.tax_total).toBe(150);
    const before = asksAbout(cart.id).length;
    const done = await t.store('POST', `/store/carts/${cart.id}/complete`);
    expect(done.json().type, done.body).toBe('order');
    expect(done.json().order.tax_total).toBe(150);
    expect(asksAbout(cart.id).length).toBe(before + 1);
  });

  it('a cart that changes at every ask: five asks, then a 503 with its code, and no order', async () => {
    const cart = await cartOf(1);
    let quantity = 1;
    let busy = false;
    controlled.onAsk = async () => {
      if (busy) return; // the change's own ask
      busy = true;
      quantity++;
      const res = await t.store('POST', `/store/carts/${cart.id}/line-items/${cart.items[0].id}`, { quantity });
      busy = false;
      expect(res.statusCode, res.body).toBe(200);
    };
    try {
      const res = await t.store('POST', `/store/carts/${cart.id}/complete`);
      expect(res.statusCode, res.body).toBe(503);
      expect(res.json()).toMatchObject({ type: 'service_unavailable', code: 'tax_provider_cart_changing' });
    } finally {
      controlled.onAsk = null;
    }
    expect(quantity).toBe(6);
    const after = (await t.store('GET', `/store/carts/${cart.id}`)).json().cart;
    expect(after.completed_at ?? null).toBeNull();
    expect(after.items[0].quantity).toBe(6);
    // Nothing is in the way of completing it now.
    const done = await t.store('POST', `/store/carts/${cart.id}/complete`);
    expect(done.json().type, done.body).toBe('order');
    expect(done.json().order.tax_total).toBe(600);
  });
});
