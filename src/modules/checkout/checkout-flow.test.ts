import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { countRows, eventsFor, makeCart, makeProduct, makeRegion, stockOf } from '../carts/testing.ts';
import { sql } from 'drizzle-orm';

let t: TestApp;
let region: Awaited<ReturnType<typeof makeRegion>>;
beforeAll(async () => {
  t = await startTestApp();
  region = await makeRegion(t, { countries: 2 }); // the first region: the store's default
});
afterAll(() => t.close());

describe("the spec's three calls", () => {
  it('create a cart with email and items, then complete: an order with an authorized manual payment', async () => {
    const { product, variant } = await makeProduct(t, { stock: 5 });
    const cart = await makeCart(t, { email: 'Shopper@Example.com', items: [{ variant_id: variant.id, quantity: 2 }] });
    expect(cart.id).toMatch(/^cart_/);
    expect(cart).toMatchObject({ email: 'shopper@example.com', region_id: region.id, currency_code: 'eur', item_total: 3000, total: 3000, completed_at: null });
    expect(cart.items[0]).toMatchObject({
      variant_id: variant.id,
      product_id: product.id,
      quantity: 2,
      unit_price: 1500,
      title: product.title,
      product_title: product.title,
      variant_title: 'M',
      variant_sku: variant.sku,
      thumbnail: 'https://img.example/shirt.png',
      subtotal: 3000,
      total: 3000,
    });

    const done = await t.store('POST', `/store/carts/${cart.id}/complete`);
    expect(done.statusCode, done.body).toBe(200);
    const { type, order } = done.json();
    expect(type).toBe('order');
    expect(order.id).toMatch(/^order_/);
    expect(order).toMatchObject({
      status: 'pending',
      payment_status: 'authorized',
      fulfillment_status: 'not_fulfilled',
      email: 'shopper@example.com',
      cart_id: cart.id,
      currency_code: 'eur',
      item_total: 3000,
      shipping_total: 0,
      total: 3000,
    });
    expect(order.display_id).toBeGreaterThan(0);
    expect(order.items).toHaveLength(1);
    expect(order.items[0]).toMatchObject({ variant_id: variant.id, unit_price: 1500, quantity: 2, detail: { fulfilled_quantity: 0 } });
    const [pc] = order.payment_collections;
    expect(pc).toMatchObject({ amount: 3000, status: 'authorized', currency_code: 'eur' });
    expect(pc.payment_sessions).toEqual([expect.objectContaining({ provider_id: 'pp_system_default', status: 'authorized', amount: 3000 })]);
    expect(pc.payments).toEqual([expect.objectContaining({ provider_id: 'pp_system_default', status: 'authorized', amount: 3000, order_id: order.id })]);
    expect(await stockOf(t, variant.id)).toBe(3);

    const after = await t.store('GET', `/store/carts/${cart.id}`);
    expect(after.json().cart.completed_at).toBe(t.clock.now().toISOString());
  });

  it('create, add an item, complete', async () => {
    const { variant } = await makeProduct(t);
    const cart = await makeCart(t, { email: 'three@example.com' });
    const added = await t.store('POST', `/store/carts/${cart.id}/line-items`, { variant_id: variant.id, quantity: 1 });
    expect(added.statusCode, added.body).toBe(200);
    const done = await t.store('POST', `/store/carts/${cart.id}/complete`, {});
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().order.total).toBe(1500);
  });
});
