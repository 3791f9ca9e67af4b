import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { moneyWithoutCurrency } from '../../platform/money/plan.ts';
import { defaultChannelId, makeRegion, uniq } from './checkout.testing.ts';

/**
 * AMOUNT_UNITS: the same shopping trip on a shop speaking minor units (the default) and one
 * speaking Medusa v2's whole units. Every figure below is asserted, so a conversion missing on
 * any route (or a rounding slip) fails here.
 */

async function product(t: TestApp, prices: { currency_code: string; amount: number }[]) {
  const res = await t.admin('POST', '/admin/products', {
    title: `Mug ${uniq()}`,
    status: 'published',
    sales_channels: [{ id: await defaultChannelId(t) }],
    variants: [{ title: 'One', prices, inventory_quantity: 10 }],
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().product;
}

/** Cart with 2 × the variant, a shipping method, a session; completed. Returns cart, options and order. */
async function trip(t: TestApp, regionId: string, variantId: string, shippingAmount: number) {
  const so = await t.admin('POST', '/admin/shipping-options', {
    name: 'Post',
    region_id: regionId,
    amount: shippingAmount,
  });
  expect(so.statusCode, so.body).toBe(200);
  const cartRes = await t.store('POST', '/store/carts', {
    region_id: regionId,
    email: 'units@example.com',
    items: [{ variant_id: variantId, quantity: 2 }],
  });
  expect(cartRes.statusCode, cartRes.body).toBe(200);
  const cartId = cartRes.json().cart.id;
  const options = (await t.store('GET', `/store/shipping-options?cart_id=${cartId}`)).json().shipping_options;
  const withMethod = await t.store('POST', `/store/carts/${cartId}/shipping-methods`, {
    option_id: so.json().shipping_option.id,
  });
  expect(withMethod.statusCode, withMethod.body).toBe(200);
  const pc = await t.store('POST', '/store/payment-collections', { cart_id: cartId });
  expect(pc.statusCode, pc.body).toBe(200);
  const session = await t.store(
    'POST',
    `/store/payment-collections/${pc.json().payment_collection.id}/payment-sessions`,
    {
      provider_id: 'pp_system_default',
    },
  );
  expect(session.statusCode, session.body).toBe(200);
  const done = await t.store('POST', `/store/carts/${cartId}/complete`);
  expect(done.statusCode, done.body).toBe(200);
  return {
    option: so.json().shipping_option,
    storeOption: options[0],
    cart: withMethod.json().cart,
    collection: session.json().payment_collection,
    order: done.json().order,
  };
}

describe('AMOUNT_UNITS=minor (default): integers in the minor unit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('takes and answers integers, and refuses a fraction of a cent', async () => {
    const region = await makeRegion(t, { currency: 'eur' });
    const p = await product(t, [{ currency_code: 'eur', amount: 1999 }]);
    expect(p.variants[0].prices[0].amount).toBe(1999);
    const { cart, order, storeOption } = await trip(t, region.id, p.variants[0].id, 500);
    expect(storeOption).toMatchObject({ amount: 500, currency_code: 'eur' });
    expect(cart).toMatchObject({ item_total: 3998, shipping_total: 500, total: 4498 });
    expect(order).toMatchObject({ total: 4498 });
    const bad = await t.admin('POST', '/admin/products', {
      title: 'Fraction',
      variants: [{ title: 'x', prices: [{ currency_code: 'eur', amount: 19.5 }] }],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ type: 'invalid_data', message: expect.stringMatching(/integer/) });
  });

  it('declares a currency in scope for every money field of every response', async () => {
    const doc = (await t.inject({ method: 'GET', url: '/openapi.json' })).json();
    const missing: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, { responses?: object }>>)) {
      for (const [method, op] of Object.entries(ops)) {
        const body = (op.responses as Record<string, { content?: Record<string, { schema: unknown }> }>)?.['200'];
        const schema = body?.content?.['application/json']?.schema;
        for (const p of moneyWithoutCurrency(schema)) missing.push(`${method} ${path} ${p}`);
      }
    }
    expect(missing).toEqual([]);
    expect(JSON.stringify(doc)).toContain('"x-money":true');
  });
});

describe('AMOUNT_UNITS=major: Medusa v2 whole units in and out', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { AMOUNT_UNITS: 'major' } });
  });
  afterAll(() => t.close());

  it('a €19.99 mug: prices, catalog, cart, shipping, payment and order all in euros', async () => {
    const region = await makeRegion(t, { currency: 'eur' });
    const p = await product(t, [
      { currency_code: 'eur', amount: 19.99 },
      { currency_code: 'jpy', amount: 3200 },
      { currency_code: 'kwd', amount: 6.125 },
    ]);
    const prices = Object.fromEntries(
      p.variants[0].prices.map((x: { currency_code: string; amount: number }) => [x.currency_code, x.amount]),
    );
    expect(prices).toEqual({ eur: 19.99, jpy: 3200, kwd: 6.125 });

    const listed = await t.store('GET', `/store/products?region_id=${region.id}&id[]=${p.id}`);
    const v = listed.json().products[0].variants[0];
    expect(v.calculated_price).toMatchObject({
      calculated_amount: 19.99,
      original_amount: 19.99,
      currency_code: 'eur',
    });
    expect(v.calculated_price.raw_calculated_amount.value).toBe('19.99');
    expect(listed.body).toContain('"amount":19.99');
    const admin = await t.admin('GET', `/admin/products/${p.id}`);
    expect(
      admin
        .json()
        .product.variants[0].prices.map((x: { amount: number }) => x.amount)
        .sort(),
    ).toEqual([19.99, 3200, 6.125].sort());

    const { option, storeOption, cart, collection, order } = await trip(t, region.id, p.variants[0].id, 4.9);
    expect(option).toMatchObject({ amount: 4.9, currency_code: 'eur' });
    expect(storeOption).toMatchObject({ amount: 4.9 });
    expect(cart).toMatchObject({ item_subtotal: 39.98, shipping_total: 4.9, subtotal: 44.88, total: 44.88 });
    expect(cart.items[0]).toMatchObject({ unit_price: 19.99, subtotal: 39.98, total: 39.98 });
    expect(cart.shipping_methods[0]).toMatchObject({ amount: 4.9, total: 4.9 });
    expect(collection).toMatchObject({ amount: 44.88 });
    expect(collection.payment_sessions[0]).toMatchObject({ amount: 44.88 });
    expect(order).toMatchObject({ total: 44.88, item_total: 39.98, shipping_total: 4.9 });
    expect(order.payment_collections[0].payments[0]).toMatchObject({ amount: 44.88 });

    // Stored in cents: the admin panel's header asks for minor units and gets them.
    const minor = await t.admin('GET', `/admin/orders/${order.id}`, undefined, {
      headers: { 'x-emporium-amount-units': 'minor' },
    });
    expect(minor.json().order.total).toBe(4488);

    const paymentId = order.payment_collections[0].payments[0].id;
    const captured = await t.admin('POST', `/admin/payments/${paymentId}/capture`, { amount: 40.01 });
    expect(captured.statusCode, captured.body).toBe(200);
    expect(captured.json().payment).toMatchObject({ captured_amount: 40.01, captures: [{ amount: 40.01 }] });
    const refunded = await t.admin('POST', `/admin/orders/${order.id}/refunds`, { amount: 0.07 });
    expect(refunded.statusCode, refunded.body).toBe(200);
    expect(refunded.json().order.summary).toMatchObject({
      captured_total: 40.01,
      refunded_total: 0.07,
      paid_total: 40.01,
      transaction_total: 39.94,
    });
    const tooFine = await t.admin('POST', `/admin/orders/${order.id}/refunds`, { amount: 0.001 });
    expect(tooFine.statusCode).toBe(400);
    expect(tooFine.json().message).toMatch(/more decimal places than EUR allows/);
  });

  it('a yen region has no decimals and a dinar region three', async () => {
    const yen = await makeRegion(t, { currency: 'jpy' });
    const p = await product(t, [{ currency_code: 'jpy', amount: 1500 }]);
    const { cart, order } = await trip(t, yen.id, p.variants[0].id, 300);
    expect(cart).toMatchObject({ currency_code: 'jpy', total: 3300 });
    expect(order.total).toBe(3300);
    const half = await t.admin('POST', '/admin/shipping-options', { name: 'Half', region_id: yen.id, amount: 0.5 });
    expect(half.statusCode).toBe(400);

    const dinar = await makeRegion(t, { currency: 'kwd' });
    const d = await product(t, [{ currency_code: 'kwd', amount: 1.255 }]);
    const trip2 = await trip(t, dinar.id, d.variants[0].id, 0.5);
    expect(trip2.cart).toMatchObject({ item_total: 2.51, shipping_total: 0.5, total: 3.01 });
    const moved = await t.admin('POST', `/admin/shipping-options/${trip2.option.id}`, { amount: 0.125 });
    expect(moved.json().shipping_option).toMatchObject({ amount: 0.125, currency_code: 'kwd' });
  });
});
