import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import {
  defaultChannelId,
  eventsFor,
  makeCart,
  makeChannel,
  makeKey,
  makeProduct,
  makeRegion,
} from './checkout.testing.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const BAD_BODY = 'Provided request body contains errors. Please check the data and retry the request';

describe('POST /store/carts', () => {
  it('is a 400 while the store has no region and none is given', async () => {
    const res = await t.store('POST', '/store/carts', {});
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      type: 'invalid_data',
      code: 'cart_region_required',
      message: 'No region_id was given and the store has no region',
    });
  });

  it('uses the first region by id as the default, in its currency, with the key’s only channel', async () => {
    const first = await makeRegion(t, { currency: 'eur', countries: 2 });
    await makeRegion(t, { currency: 'usd' });
    const cart = await makeCart(t, {});
    expect(cart).toMatchObject({
      region_id: first.id,
      currency_code: 'eur',
      sales_channel_id: await defaultChannelId(t),
      email: null,
      customer_id: null,
      customer: null,
      items: [],
      shipping_methods: [],
      payment_collection: null,
      promotions: [],
      shipping_address: null,
      billing_address: null,
      metadata: null,
      item_subtotal: 0,
      item_total: 0,
      shipping_total: 0,
      subtotal: 0,
      tax_total: 0,
      discount_total: 0,
      total: 0,
      completed_at: null,
      created_at: t.clock.now().toISOString(),
    });
    expect(cart.region).toMatchObject({ id: first.id, name: first.name, countries: first.countries });
    const got = await t.store('GET', `/store/carts/${cart.id}?fields=*items,%2Bitems.total`);
    expect(got.statusCode).toBe(200);
    expect(got.json().cart).toEqual(cart);
  });

  it('takes region_id, currency_code (case-insensitive, must match), addresses and metadata', async () => {
    const usd = await makeRegion(t, { currency: 'usd', countries: 2 });
    const [a, b] = usd.countries.map((c) => c.iso_2);
    const cart = await makeCart(t, {
      region_id: usd.id,
      currency_code: 'USD',
      shipping_address: {
        first_name: 'Ada',
        address_1: '1 Main St',
        city: 'Springfield',
        country_code: a.toUpperCase(),
        postal_code: '12345',
      },
      billing_address: { country_code: b, company: 'Acme' },
      metadata: { gift: true },
    });
    expect(cart).toMatchObject({ region_id: usd.id, currency_code: 'usd', metadata: { gift: true } });
    expect(cart.shipping_address).toMatchObject({
      first_name: 'Ada',
      last_name: null,
      country_code: a,
      city: 'Springfield',
      metadata: null,
    });
    expect(cart.shipping_address.id).toMatch(/^caaddr_/);
    expect(cart.billing_address).toMatchObject({ country_code: b, company: 'Acme' });

    const mismatch = await t.store('POST', '/store/carts', { region_id: usd.id, currency_code: 'eur' });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().message).toContain('Currency code eur does not match');
  });

  it('rejects an address outside the region, an unknown region, unknown fields, bad types and a bad email', async () => {
    const region = await makeRegion(t);
    const outside = await t.store('POST', '/store/carts', {
      region_id: region.id,
      shipping_address: { country_code: 'zz' },
    });
    expect(outside.statusCode).toBe(400);
    expect(outside.json()).toEqual({
      type: 'invalid_data',
      code: 'cart_country_outside_region',
      message: `Country with code zz is not within region ${region.name}`,
    });
    const unknown = await t.store('POST', '/store/carts', { region_id: 'reg_nope' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe('Region with id: reg_nope was not found');
    expect((await t.store('POST', '/store/carts', { foo: 'bar' })).json()).toMatchObject({
      type: 'invalid_data',
      message: expect.stringContaining("Unrecognized fields: 'foo'"),
    });
    expect((await t.store('POST', '/store/carts', { email: 5 })).statusCode).toBe(400);
    expect((await t.store('POST', '/store/carts', { email: 'not-an-email' })).statusCode).toBe(400);
    expect((await t.store('POST', '/store/carts', { items: [{ variant_id: 'v', quantity: 0 }] })).statusCode).toBe(400);
    expect((await t.store('POST', '/store/carts', { items: [{ variant_id: 'v' }] })).json().message).toContain(
      "Field 'items.0.quantity' is required",
    );
    expect((await t.store('POST', '/store/carts', { customer_id: 'cus_1' })).statusCode).toBe(400);
    expect(
      (await t.store('POST', '/store/carts', '{"email":', { headers: { 'content-type': 'application/json' } }))
        .statusCode,
    ).toBe(400);
  });

  it('follows Medusa’s sales channel rules', async () => {
    const sc = await defaultChannelId(t);
    const other = await makeChannel(t);
    const multi = await makeKey(t, [sc, other]);
    const none = await makeKey(t, []);
    const noChannel = await t.store('POST', '/store/carts', {}, { key: multi });
    expect(noChannel.statusCode).toBe(400);
    expect(noChannel.json()).toEqual({ type: 'invalid_data', code: 'cart_sales_channel_invalid', message: BAD_BODY });
    const chosen = await t.store('POST', '/store/carts', { sales_channel_id: other }, { key: multi });
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect(chosen.json().cart.sales_channel_id).toBe(other);
    const outside = await t.store('POST', '/store/carts', { sales_channel_id: other });
    expect(outside.json()).toEqual({ type: 'invalid_data', code: 'cart_sales_channel_invalid', message: BAD_BODY });
    const keyless = await t.store('POST', '/store/carts', {}, { key: none });
    expect(keyless.json()).toEqual({
      type: 'not_allowed',
      code: 'publishable_key_without_channel',
      message: 'Publishable key needs to have a sales channel configured',
    });
    expect((await t.store('POST', '/store/carts', {}, { key: null })).statusCode).toBe(400);
    expect((await t.store('POST', '/store/carts', {}, { key: 'pk_bogus' })).statusCode).toBe(401);
  });

  it('prices items from the variant in the cart’s currency and merges repeats within the request', async () => {
    const { variant } = await makeProduct(t, {
      prices: [
        { currency_code: 'eur', amount: 1250 },
        { currency_code: 'usd', amount: 1400 },
      ],
    });
    const cart = await makeCart(t, {
      items: [
        { variant_id: variant.id, quantity: 1 },
        { variant_id: variant.id, quantity: 2 },
        { variant_id: variant.id, quantity: 1, metadata: { engraving: 'A' } },
      ],
    });
    expect(cart.items.map((i: { quantity: number; metadata: unknown }) => [i.quantity, i.metadata])).toEqual([
      [3, null],
      [1, { engraving: 'A' }],
    ]);
    expect(cart.items[0]).toMatchObject({
      unit_price: 1250,
      subtotal: 3750,
      total: 3750,
      tax_total: 0,
      cart_id: cart.id,
    });
    expect(cart.items[0].id).toMatch(/^cali_/);
    expect(cart).toMatchObject({ item_subtotal: 5000, item_total: 5000, subtotal: 5000, total: 5000 });
  });

  it('writes cart.created with the cart in the same transaction', async () => {
    const cart = await makeCart(t, { email: 'ev@example.com' });
    const events = await eventsFor(t, cart.id);
    expect(events.map((e) => e.name)).toEqual(['cart.created']);
    expect(events[0].payload).toMatchObject({ id: cart.id, email: 'ev@example.com', total: 0 });
  });
});

describe('GET /store/carts/{id}', () => {
  it('404s an unknown cart with Medusa’s message', async () => {
    const res = await t.store('GET', '/store/carts/cart_nope');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      type: 'not_found',
      code: 'cart_not_found',
      message: "Cart with id 'cart_nope' not found",
    });
    expect((await t.store('GET', `/store/carts/${'x'.repeat(300)}`)).statusCode).toBe(400);
  });
});
