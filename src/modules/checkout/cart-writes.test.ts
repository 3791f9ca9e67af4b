import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { eventsFor, makeCart, makeProduct, makeRegion } from './checkout.testing.ts';

/**
 * Changes of lines and completion answer a view built from what was read before the writes and
 * what the writes do, without reading the rows back: these prove the answer is byte for byte what
 * a read right after would show (metadata keys in jsonb's order included), and that the event
 * carries the same thing.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  await makeRegion(t, { currency: 'eur' });
});
afterAll(() => t.close());

const post = (url: string, body?: unknown) => t.store('POST', url, body as never);
const ok = (res: LightMyRequestResponse) => {
  expect(res.statusCode, res.body).toBe(200);
  return res;
};
const read = async (cartId: string) => ok(await t.store('GET', `/store/carts/${cartId}`)).body;

// Keys in an order jsonb does not keep (it sorts by length, then bytes), nested, and one not ASCII.
const metadata = { zeta: 1, a: { yy: 2, b: [{ dd: 1, c: 2 }] }, é: true, bb: null };
const reordered = { bb: null, é: true, a: { b: [{ c: 2, dd: 1 }], yy: 2 }, zeta: 1 };

describe('a change of lines answers the cart as a read right after it', () => {
  it('add, add again (merged), add another, change with metadata, delete; with a payment collection in step', async () => {
    const { variant } = await makeProduct(t, { stock: 50 });
    const { variant: other } = await makeProduct(t, { stock: 50 });
    const cart = await makeCart(t, { email: 'views@example.com' });
    const lines = `/store/carts/${cart.id}/line-items`;

    const first = ok(await post(lines, { variant_id: variant.id, quantity: 1, metadata }));
    expect(first.body).toBe(await read(cart.id));
    t.clock.advance(1000);
    const merged = ok(await post(lines, { variant_id: variant.id, quantity: 2, metadata: reordered }));
    expect(merged.json().cart.items).toHaveLength(1);
    expect(merged.json().cart.items[0].quantity).toBe(3);
    expect(merged.body).toBe(await read(cart.id));
    t.clock.advance(1000);
    const added = ok(await post(lines, { variant_id: other.id, quantity: 1 }));
    expect(added.body).toBe(await read(cart.id));

    // A collection with a pending session: each change moves both to the new total.
    const pc = ok(await post('/store/payment-collections', { cart_id: cart.id })).json().payment_collection;
    ok(await post(`/store/payment-collections/${pc.id}/payment-sessions`, { provider_id: 'pp_system_default' }));
    const [line, otherLine] = added
      .json()
      .cart.items.sort((a: { variant_id: string }) => (a.variant_id === variant.id ? -1 : 1));
    t.clock.advance(1000);
    const changed = ok(await post(`${lines}/${line.id}`, { quantity: 4, metadata: { z: 1, aa: [1, { y: 0, x: 1 }] } }));
    const collection = changed.json().cart.payment_collection;
    expect(collection.amount).toBe(changed.json().cart.total);
    expect(collection.payment_sessions[0]).toMatchObject({ amount: changed.json().cart.total, status: 'pending' });
    expect(changed.body).toBe(await read(cart.id));

    t.clock.advance(1000);
    const deleted = ok(await t.store('DELETE', `${lines}/${otherLine.id}`));
    expect(JSON.stringify(deleted.json().parent)).toBe(JSON.stringify(JSON.parse(await read(cart.id)).cart));

    const events = await eventsFor(t, cart.id);
    expect(events.map((e) => e.name)).toEqual([
      'cart.created',
      'cart.updated',
      'cart.updated',
      'cart.updated',
      'cart.updated', // the collection opened
      'cart.updated', // its session
      'cart.updated',
      'cart.updated',
    ]);
    expect(events.at(-1)!.payload).toEqual(JSON.parse(await read(cart.id)).cart);
  });

  it('refuses as before: a variant not sold, more than in stock, an unknown line; nothing written', async () => {
    const { variant } = await makeProduct(t, { stock: 2 });
    const cart = await makeCart(t, { email: 'refused@example.com' });
    const lines = `/store/carts/${cart.id}/line-items`;
    const before = await read(cart.id);
    const unknown = await post(lines, { variant_id: 'variant_nope', quantity: 1 });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe(
      'Variants variant_nope do not exist or belong to a product that is not published',
    );
    const tooMany = await post(lines, { variant_id: variant.id, quantity: 3 });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().code).toBe('insufficient_inventory');
    expect((await post(`${lines}/cali_nope`, { quantity: 1 })).statusCode).toBe(404);
    expect(await read(cart.id)).toBe(before);
    expect((await eventsFor(t, cart.id)).map((e) => e.name)).toEqual(['cart.created']);
  });
});

describe('completion answers the order as completing again reads it back', () => {
  it('the short flow: order, lines, the manual payment; the event has the display_id', async () => {
    const { variant } = await makeProduct(t, { stock: 5 });
    const cart = await makeCart(t, { email: 'short@example.com', metadata: { k: 1 } });
    ok(await post(`/store/carts/${cart.id}/line-items`, { variant_id: variant.id, quantity: 2, metadata }));
    const done = ok(await post(`/store/carts/${cart.id}/complete`));
    const again = ok(await post(`/store/carts/${cart.id}/complete`));
    expect(done.body).toBe(again.body);
    const order = done.json().order;
    expect(order.display_id).toBeGreaterThan(0);
    const [placed] = (await eventsFor(t, order.id)).filter((e) => e.name === 'order.placed');
    expect(placed.payload).toEqual(order);
  });

  it('a collection with a session: the session authorized, the payment as stored', async () => {
    const { variant } = await makeProduct(t, { stock: 5 });
    const cart = await makeCart(t, {
      email: 'collection@example.com',
      items: [{ variant_id: variant.id, quantity: 1 }],
    });
    const pc = ok(await post('/store/payment-collections', { cart_id: cart.id })).json().payment_collection;
    ok(await post(`/store/payment-collections/${pc.id}/payment-sessions`, { provider_id: 'pp_system_default' }));
    ok(await post(`/store/payment-collections/${pc.id}/payment-sessions`, { provider_id: 'pp_system_default' }));
    const done = ok(await post(`/store/carts/${cart.id}/complete`));
    expect(done.body).toBe(ok(await post(`/store/carts/${cart.id}/complete`)).body);
    const [collection] = done.json().order.payment_collections;
    expect(collection.payment_sessions.map((s: { status: string }) => s.status)).toEqual(['authorized']);
    expect(collection.payments).toEqual([expect.objectContaining({ status: 'authorized', amount: 1500 })]);
  });
});

describe('prepared statements outlive a migration of a running instance', () => {
  it('a column added to carts (another instance migrating first) breaks no cart read or write', async () => {
    const { variant } = await makeProduct(t, { stock: 5 });
    const carts = await Promise.all([1, 2].map(() => makeCart(t, { email: 'rolling@example.com' })));
    // Prepared and planned on every connection of the pool.
    for (let i = 0; i < 12; i++) await Promise.all(carts.map((c) => read(c.id)));
    await t.database.db.execute(sql`alter table carts add column rolling_test text`);
    try {
      for (let i = 0; i < 12; i++) await Promise.all(carts.map((c) => read(c.id)));
      for (const c of carts) {
        ok(await post(`/store/carts/${c.id}/line-items`, { variant_id: variant.id, quantity: 1 }));
        ok(await post(`/store/carts/${c.id}/complete`));
      }
    } finally {
      await t.database.db.execute(sql`alter table carts drop column rolling_test`);
    }
  });
});
