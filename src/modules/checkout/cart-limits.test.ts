import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { rows } from '../../platform/db/database.ts';
import { eventsFor, makeCart, makeProduct, makeRegion } from './checkout.testing.ts';

/**
 * What a shopper can store on a cart is bounded: every change writes the whole cart into its
 * `cart.updated` event, so unbounded metadata or lines made the outbox grow with the square of
 * what was uploaded. A refused change is a 400 that writes nothing, not even its event.
 */
let t: TestApp;
let variantId: string;
beforeAll(async () => {
  t = await startTestApp();
  await makeRegion(t, { currency: 'eur' });
  variantId = (await makeProduct(t, { manage_inventory: false })).variant.id;
});
afterAll(() => t.close());

/** Metadata whose JSON is exactly `bytes` long. */
const metadataOf = (bytes: number) => ({ note: 'x'.repeat(bytes - '{"note":""}'.length) });
const FOUR_KB = metadataOf(4096);
const FIVE_KB = metadataOf(5120);

const post = (url: string, body: unknown) => t.store('POST', url, body as never);

/** The cart's row, lines and events as stored: what a refused change must leave as it was. */
async function stored(cartId: string) {
  const [cart] = await rows<Record<string, unknown>>(t.database.db, sql`select * from carts where id = ${cartId}`);
  const lines = await rows(t.database.db, sql`select * from cart_line_items where cart_id = ${cartId} order by id`);
  return { cart, lines, events: await eventsFor(t, cartId) };
}

async function expectRefused(res: { statusCode: number; json(): { type: string; message: string } }, says: string) {
  expect(res.statusCode).toBe(400);
  expect(res.json().type).toBe('invalid_data');
  expect(res.json().message).toContain(says);
}

const countCarts = async () =>
  (await rows<{ n: number }>(t.database.db, sql`select count(*)::int as n from carts`))[0].n;

describe('metadata a shopper stores is at most 4 KiB as JSON', () => {
  it('4 KiB of line-item metadata is taken; 5 KiB is a 400 that writes nothing', async () => {
    const cart = await makeCart(t, { email: 'meta@example.com' });
    const lines = `/store/carts/${cart.id}/line-items`;
    const added = await post(lines, { variant_id: variantId, quantity: 1, metadata: FOUR_KB });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json().cart.items[0].metadata).toEqual(FOUR_KB);

    const before = await stored(cart.id);
    const lineId = added.json().cart.items[0].id;
    await expectRefused(
      await post(lines, { variant_id: variantId, quantity: 1, metadata: FIVE_KB }),
      "Field 'metadata' must be at most 4096 bytes as JSON",
    );
    await expectRefused(await post(`${lines}/${lineId}`, { quantity: 2, metadata: FIVE_KB }), "'metadata'");
    expect(await stored(cart.id)).toEqual(before);
  });

  it('the same holds for the cart, its addresses and the items of a new cart', async () => {
    const cart = await makeCart(t, { metadata: FOUR_KB, shipping_address: { city: 'Lyon', metadata: FOUR_KB } });
    expect(cart.metadata).toEqual(FOUR_KB);
    const before = await stored(cart.id);
    await expectRefused(await post(`/store/carts/${cart.id}`, { metadata: FIVE_KB }), "'metadata'");
    await expectRefused(
      await post(`/store/carts/${cart.id}`, { billing_address: { city: 'Lyon', metadata: FIVE_KB } }),
      "'billing_address.metadata'",
    );
    expect(await stored(cart.id)).toEqual(before);

    const carts = await countCarts();
    await expectRefused(await post('/store/carts', { metadata: FIVE_KB }), "'metadata'");
    await expectRefused(
      await post('/store/carts', { items: [{ variant_id: variantId, quantity: 1, metadata: FIVE_KB }] }),
      "'items.0.metadata'",
    );
    expect(await countCarts()).toBe(carts);
  });

  it('counts bytes, not characters', async () => {
    const cart = await makeCart(t, {});
    // 1,100 × "é" (2 bytes each in UTF-8): 1,100 characters, over 2,200 bytes; 2,100 of them is over 4 KiB.
    const ok = await post(`/store/carts/${cart.id}`, { metadata: { n: 'é'.repeat(1100) } });
    expect(ok.statusCode, ok.body).toBe(200);
    await expectRefused(await post(`/store/carts/${cart.id}`, { metadata: { n: 'é'.repeat(2100) } }), 'bytes');
  });
});

describe('a cart holds at most 100 distinct lines', () => {
  it('100 lines are taken; a 101st is a 400 that writes nothing; adding to a line still works', async () => {
    // The same variant with different metadata makes a line each.
    const items = Array.from({ length: 100 }, (_, i) => ({ variant_id: variantId, quantity: 1, metadata: { n: i } }));
    const cart = await makeCart(t, { items });
    expect(cart.items).toHaveLength(100);

    const before = await stored(cart.id);
    const lines = `/store/carts/${cart.id}/line-items`;
    await expectRefused(
      await post(lines, { variant_id: variantId, quantity: 1, metadata: { n: 100 } }),
      'A cart can have at most 100 line items',
    );
    expect(await stored(cart.id)).toEqual(before);

    const more = await post(lines, { variant_id: variantId, quantity: 2, metadata: { n: 7 } });
    expect(more.statusCode, more.body).toBe(200);
    expect(more.json().cart.items).toHaveLength(100);
    expect(more.json().cart.items.find((l: { metadata: { n: number } }) => l.metadata.n === 7).quantity).toBe(3);
  });

  it('lines added one by one stop at 100 too', async () => {
    const cart = await makeCart(t, {
      items: Array.from({ length: 99 }, (_, i) => ({ variant_id: variantId, quantity: 1, metadata: { n: i } })),
    });
    const lines = `/store/carts/${cart.id}/line-items`;
    const hundredth = await post(lines, { variant_id: variantId, quantity: 1, metadata: { n: 99 } });
    expect(hundredth.statusCode, hundredth.body).toBe(200);
    expect(hundredth.json().cart.items).toHaveLength(100);
    const before = await stored(cart.id);
    await expectRefused(await post(lines, { variant_id: variantId, quantity: 1 }), 'at most 100 line items');
    expect(await stored(cart.id)).toEqual(before);
  });
});
