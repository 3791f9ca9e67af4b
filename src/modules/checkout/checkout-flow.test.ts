import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { eventsFor, makeCart, makeProduct, makeRegion, stockOf } from './checkout.testing.ts';

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
    expect(cart).toMatchObject({
      email: 'shopper@example.com',
      region_id: region.id,
      currency_code: 'eur',
      item_total: 3000,
      total: 3000,
      completed_at: null,
    });
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
    expect(order.items[0]).toMatchObject({
      variant_id: variant.id,
      unit_price: 1500,
      quantity: 2,
      detail: { fulfilled_quantity: 0 },
    });
    const [pc] = order.payment_collections;
    expect(pc).toMatchObject({ amount: 3000, status: 'authorized', currency_code: 'eur' });
    expect(pc.payment_sessions).toEqual([
      expect.objectContaining({ provider_id: 'pp_system_default', status: 'authorized', amount: 3000 }),
    ]);
    expect(pc.payments).toEqual([
      expect.objectContaining({
        provider_id: 'pp_system_default',
        status: 'authorized',
        amount: 3000,
        order_id: order.id,
      }),
    ]);
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

describe("Medusa's storefront sequence", () => {
  it('regions → cart → line item → email and addresses → shipping options → method → providers → collection → session → complete', async () => {
    const { variant } = await makeProduct(t, { stock: 3 });
    const so = (
      await t.admin('POST', '/admin/shipping-options', { name: 'Standard', region_id: region.id, amount: 490 })
    ).json().shipping_option;

    const regions = (await t.store('GET', '/store/regions')).json().regions;
    const regionId = regions[0].id;
    const cart = await makeCart(t, { region_id: regionId });
    const withItem = await t.store('POST', `/store/carts/${cart.id}/line-items`, {
      variant_id: variant.id,
      quantity: 2,
    });
    expect(withItem.statusCode, withItem.body).toBe(200);
    const country = region.countries[0].iso_2;
    const address = {
      first_name: 'Ada',
      last_name: 'L',
      address_1: '1 Rue',
      city: 'Paris',
      country_code: country,
      postal_code: '75001',
    };
    const updated = await t.store('POST', `/store/carts/${cart.id}`, {
      email: 'ada@example.com',
      shipping_address: address,
      billing_address: address,
    });
    expect(updated.statusCode, updated.body).toBe(200);

    const options = (await t.store('GET', `/store/shipping-options?cart_id=${cart.id}`)).json().shipping_options;
    expect(options.map((o: { id: string }) => o.id)).toContain(so.id);
    const shipped = await t.store('POST', `/store/carts/${cart.id}/shipping-methods`, { option_id: so.id });
    expect(shipped.json().cart.total).toBe(3490);

    const providers = await t.store('GET', `/store/payment-providers?region_id=${regionId}`);
    expect(providers.json()).toEqual({
      payment_providers: [{ id: 'pp_system_default', is_enabled: true }],
      count: 1,
      limit: 20,
      offset: 0,
    });
    const pcRes = await t.store('POST', '/store/payment-collections', { cart_id: cart.id });
    expect(pcRes.statusCode, pcRes.body).toBe(200);
    const pc = pcRes.json().payment_collection;
    expect(pc.id).toMatch(/^pay_col_/);
    expect(pc).toMatchObject({
      cart_id: cart.id,
      currency_code: 'eur',
      amount: 3490,
      status: 'not_paid',
      payment_sessions: [],
    });
    const again = (await t.store('POST', '/store/payment-collections', { cart_id: cart.id })).json().payment_collection;
    expect(again.id).toBe(pc.id);

    const sessionRes = await t.store('POST', `/store/payment-collections/${pc.id}/payment-sessions`, {
      provider_id: 'pp_system_default',
    });
    expect(sessionRes.statusCode, sessionRes.body).toBe(200);
    const withSession = sessionRes.json().payment_collection;
    expect(withSession).toMatchObject({ id: pc.id, amount: 3490, status: 'awaiting' });
    expect(withSession.payment_sessions).toEqual([
      expect.objectContaining({ provider_id: 'pp_system_default', amount: 3490, status: 'pending', data: {} }),
    ]);
    const sessionId = withSession.payment_sessions[0].id;
    expect(sessionId).toMatch(/^payses_/);

    const readBack = (await t.store('GET', `/store/carts/${cart.id}`)).json().cart;
    expect(readBack.payment_collection).toMatchObject({
      id: pc.id,
      payment_sessions: [expect.objectContaining({ id: sessionId })],
    });
    expect(readBack.shipping_address).toMatchObject({ city: 'Paris', country_code: country });

    const done = await t.store('POST', `/store/carts/${cart.id}/complete`, {});
    expect(done.statusCode, done.body).toBe(200);
    const order = done.json().order;
    expect(order).toMatchObject({
      email: 'ada@example.com',
      item_total: 3000,
      shipping_total: 490,
      total: 3490,
      payment_status: 'authorized',
    });
    expect(order.shipping_address).toMatchObject({ city: 'Paris' });
    expect(order.shipping_methods).toEqual([
      expect.objectContaining({ name: 'Standard', amount: 490, shipping_option_id: so.id }),
    ]);
    expect(order.payment_collections).toHaveLength(1);
    expect(order.payment_collections[0]).toMatchObject({ id: pc.id, status: 'authorized', amount: 3490 });
    expect(order.payment_collections[0].payment_sessions).toEqual([
      expect.objectContaining({ id: sessionId, status: 'authorized' }),
    ]);
    expect(order.payment_collections[0].payments).toEqual([
      expect.objectContaining({ payment_session_id: sessionId, amount: 3490, status: 'authorized' }),
    ]);
    expect(await stockOf(t, variant.id)).toBe(1);
  });
});

describe('completion rules', () => {
  it('is idempotent: the same order again, no second order or stock change', async () => {
    const { variant } = await makeProduct(t, { stock: 5 });
    const cart = await makeCart(t, { email: 'again@example.com', items: [{ variant_id: variant.id, quantity: 1 }] });
    const first = (await t.store('POST', `/store/carts/${cart.id}/complete`)).json();
    t.clock.advance(1000);
    const second = await t.store('POST', `/store/carts/${cart.id}/complete`);
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual(first);
    expect(await stockOf(t, variant.id)).toBe(4);
  });

  it('a completed cart cannot change: 400 Cart <id> is already completed.', async () => {
    const { variant } = await makeProduct(t);
    const cart = await makeCart(t, { email: 'closed@example.com', items: [{ variant_id: variant.id, quantity: 1 }] });
    await t.store('POST', `/store/carts/${cart.id}/complete`);
    const closed = { type: 'invalid_data', code: 'cart_completed', message: `Cart ${cart.id} is already completed.` };
    const line = cart.items[0].id;
    for (const [method, url, body] of [
      ['POST', `/store/carts/${cart.id}/line-items`, { variant_id: variant.id, quantity: 1 }],
      ['POST', `/store/carts/${cart.id}/line-items/${line}`, { quantity: 2 }],
      ['DELETE', `/store/carts/${cart.id}/line-items/${line}`, undefined],
      ['POST', `/store/carts/${cart.id}`, { email: 'new@example.com' }],
      ['POST', '/store/payment-collections', { cart_id: cart.id }],
    ] as const) {
      const res = await t.store(method, url, body);
      expect(res.statusCode, url).toBe(400);
      expect(res.json()).toEqual(closed);
    }
  });

  it('400s an empty cart and a cart without email; 404s an unknown cart; rejects a body', async () => {
    const { variant } = await makeProduct(t);
    const empty = await makeCart(t, { email: 'empty@example.com' });
    expect((await t.store('POST', `/store/carts/${empty.id}/complete`)).json()).toEqual({
      type: 'invalid_data',
      code: 'cart_empty',
      message: 'Cannot complete a cart with no items',
    });
    const anonymous = await makeCart(t, { items: [{ variant_id: variant.id, quantity: 1 }] });
    const noEmail = await t.store('POST', `/store/carts/${anonymous.id}/complete`);
    expect(noEmail.statusCode).toBe(400);
    expect(noEmail.json().message).toContain('without an email');
    expect((await t.store('POST', '/store/carts/cart_nope/complete')).statusCode).toBe(404);
    expect((await t.store('POST', `/store/carts/${anonymous.id}/complete`, { foo: 1 })).statusCode).toBe(400);
  });

  it('400s a line whose product was unpublished since it was added', async () => {
    const { product, variant } = await makeProduct(t);
    const cart = await makeCart(t, { email: 'late@example.com', items: [{ variant_id: variant.id, quantity: 1 }] });
    await t.admin('POST', `/admin/products/${product.id}`, { status: 'draft' });
    const res = await t.store('POST', `/store/carts/${cart.id}/complete`);
    expect(res.json()).toEqual({
      type: 'invalid_data',
      code: 'variants_unavailable',
      message: `Variants ${variant.id} do not exist or belong to a product that is not published`,
    });
  });

  it('events: cart.created, cart.updated per change, order.placed with the order and its items', async () => {
    const { variant } = await makeProduct(t);
    const cart = await makeCart(t, { email: 'events@example.com' });
    await t.store('POST', `/store/carts/${cart.id}/line-items`, { variant_id: variant.id, quantity: 1 });
    const order = (await t.store('POST', `/store/carts/${cart.id}/complete`)).json().order;
    expect((await eventsFor(t, cart.id)).map((e) => e.name)).toEqual(['cart.created', 'cart.updated']);
    const placed = await eventsFor(t, order.id);
    expect(placed.map((e) => e.name)).toEqual(['order.placed']);
    expect(placed[0].payload).toMatchObject({
      id: order.id,
      cart_id: cart.id,
      total: 1500,
      items: [expect.objectContaining({ variant_id: variant.id })],
    });
    const seen: string[] = [];
    t.workers.bus.on('order.*', (e: { name: string }) => void seen.push(e.name));
    await t.workers.dispatcher.drain();
    expect(seen).toContain('order.placed');
  });
});

describe('payments API', () => {
  it('validates providers, regions and bodies', async () => {
    expect((await t.store('GET', '/store/payment-providers')).statusCode).toBe(400);
    expect((await t.store('GET', '/store/payment-providers?region_id=reg_nope')).statusCode).toBe(404);
    expect((await t.store('GET', `/store/payment-providers?region_id=${region.id}&limit=0`)).json()).toMatchObject({
      payment_providers: [],
      count: 1,
    });
    expect((await t.store('POST', '/store/payment-collections', {})).statusCode).toBe(400);
    expect((await t.store('POST', '/store/payment-collections', { cart_id: 'cart_nope' })).statusCode).toBe(404);
    const cart = await makeCart(t, {});
    const pc = (await t.store('POST', '/store/payment-collections', { cart_id: cart.id })).json().payment_collection;
    const stripe = await t.store('POST', `/store/payment-collections/${pc.id}/payment-sessions`, {
      provider_id: 'pp_stripe_stripe',
    });
    expect(stripe.json()).toEqual({
      type: 'invalid_data',
      code: 'payment_providers_not_found',
      message: 'Payment providers with ids pp_stripe_stripe not found',
    });
    expect((await t.store('POST', `/store/payment-collections/${pc.id}/payment-sessions`, {})).statusCode).toBe(400);
    expect(
      (
        await t.store('POST', '/store/payment-collections/pay_col_nope/payment-sessions', {
          provider_id: 'pp_system_default',
        })
      ).statusCode,
    ).toBe(404);
  });

  it('the collection amount follows the cart total as the cart changes', async () => {
    const { variant } = await makeProduct(t);
    const cart = await makeCart(t, {});
    const pc = (await t.store('POST', '/store/payment-collections', { cart_id: cart.id })).json().payment_collection;
    expect(pc.amount).toBe(0);
    await t.store('POST', `/store/payment-collections/${pc.id}/payment-sessions`, { provider_id: 'pp_system_default' });
    const grown = (
      await t.store('POST', `/store/carts/${cart.id}/line-items`, { variant_id: variant.id, quantity: 2 })
    ).json().cart;
    expect(grown.payment_collection).toMatchObject({ id: pc.id, amount: 3000 });
    expect(grown.payment_collection.payment_sessions[0].amount).toBe(3000);
  });
});
