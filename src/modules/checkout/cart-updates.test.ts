import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { rows } from '../../platform/db/database.ts';
import { eventsFor, makeCart, makeChannel, makeProduct, makeRegion } from './checkout.testing.ts';

let t: TestApp;
let eur: Awaited<ReturnType<typeof makeRegion>>;
beforeAll(async () => {
  t = await startTestApp();
  eur = await makeRegion(t, { currency: 'eur', countries: 2 });
});
afterAll(() => t.close());

const post = (url: string, body?: unknown) => t.store('POST', url, body as never);

describe('POST /store/carts/{id}', () => {
  it('sets email, addresses and metadata; null clears; moves last_activity_at and emits cart.updated', async () => {
    const cart = await makeCart(t, {});
    t.clock.advance(60_000);
    const res = await post(`/store/carts/${cart.id}`, {
      email: 'Buyer@Example.com',
      shipping_address: { id: 'caaddr_from_sdk', first_name: 'Bo', country_code: eur.countries[0].iso_2 },
      billing_address: { first_name: 'Bo' },
      metadata: { note: 'x' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const updated = res.json().cart;
    expect(updated).toMatchObject({
      email: 'buyer@example.com',
      metadata: { note: 'x' },
      updated_at: t.clock.now().toISOString(),
    });
    expect(updated.shipping_address).toMatchObject({ first_name: 'Bo', country_code: eur.countries[0].iso_2 });
    expect(updated.shipping_address.id).not.toBe('caaddr_from_sdk');
    const [row] = await rows<{ at: Date }>(
      t.database.db,
      sql`select last_activity_at as at from carts where id = ${cart.id}`,
    );
    expect(new Date(row.at).toISOString()).toBe(t.clock.now().toISOString());

    const cleared = (await post(`/store/carts/${cart.id}`, { email: null, billing_address: null })).json().cart;
    expect(cleared).toMatchObject({ email: null, billing_address: null, metadata: { note: 'x' } });
    expect(cleared.shipping_address.first_name).toBe('Bo');
    expect((await eventsFor(t, cart.id)).map((e) => e.name)).toEqual(['cart.created', 'cart.updated', 'cart.updated']);
  });

  it('rejects a country outside the region, customer_id, unknown fields; 404s an unknown cart', async () => {
    const cart = await makeCart(t, {});
    // Countries are handed out per worker, so pick one this region surely lacks.
    const foreign = ['dk', 'jp'].find((c) => !eur.countries.some((x) => x.iso_2 === c))!;
    const outside = await post(`/store/carts/${cart.id}`, {
      shipping_address: { country_code: foreign.toUpperCase() },
    });
    expect(outside.statusCode).toBe(400);
    expect(outside.json()).toEqual({
      type: 'invalid_data',
      code: 'cart_country_outside_region',
      message: `Country with code ${foreign} is not within region ${eur.name}`,
    });
    expect((await post(`/store/carts/${cart.id}`, { customer_id: 'cus_x' })).json().message).toContain(
      "Unrecognized fields: 'customer_id'",
    );
    expect((await post(`/store/carts/${cart.id}`, { items: [] })).statusCode).toBe(400);
    expect((await post(`/store/carts/${cart.id}`, { currency_code: 'usd' })).statusCode).toBe(400);
    expect((await post('/store/carts/cart_missing', { email: 'a@b.co' })).statusCode).toBe(404);
    expect((await eventsFor(t, cart.id)).map((e) => e.name)).toEqual(['cart.created']);
  });

  it('moving to another region re-prices lines, drops the shipping method and an address that no longer fits', async () => {
    const usd = await makeRegion(t, { currency: 'usd' });
    const { variant } = await makeProduct(t, {
      prices: [
        { currency_code: 'eur', amount: 1000 },
        { currency_code: 'usd', amount: 1200 },
      ],
    });
    const so = (
      await t.admin('POST', '/admin/shipping-options', { name: 'Std', region_id: eur.id, amount: 500 })
    ).json().shipping_option;
    const cart = await makeCart(t, {
      items: [{ variant_id: variant.id, quantity: 2 }],
      shipping_address: { country_code: eur.countries[1].iso_2 },
    });
    expect((await post(`/store/carts/${cart.id}/shipping-methods`, { option_id: so.id })).json().cart.total).toBe(2500);
    const moved = (await post(`/store/carts/${cart.id}`, { region_id: usd.id })).json().cart;
    expect(moved).toMatchObject({
      region_id: usd.id,
      currency_code: 'usd',
      shipping_methods: [],
      shipping_address: null,
      item_total: 2400,
      total: 2400,
    });
    expect(moved.items[0].unit_price).toBe(1200);
    expect(moved.region.id).toBe(usd.id);
  });

  it('refuses a region change when a line has no price in the new currency; nothing changes', async () => {
    const gbp = await makeRegion(t, { currency: 'gbp' });
    const { variant } = await makeProduct(t);
    const cart = await makeCart(t, { items: [{ variant_id: variant.id, quantity: 1 }] });
    const res = await post(`/store/carts/${cart.id}`, { region_id: gbp.id });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(`Variants with IDs ${variant.id} do not have a price`);
    expect((await t.store('GET', `/store/carts/${cart.id}`)).json().cart).toMatchObject({
      region_id: eur.id,
      currency_code: 'eur',
    });
  });
});

describe('line items', () => {
  it('adds, merges the same variant and metadata, keeps other metadata apart', async () => {
    const { variant } = await makeProduct(t);
    const cart = await makeCart(t, {});
    const url = `/store/carts/${cart.id}/line-items`;
    expect((await post(url, { variant_id: variant.id, quantity: 1 })).json().cart.items).toHaveLength(1);
    const merged = (await post(url, { variant_id: variant.id, quantity: 2, metadata: {} })).json().cart;
    expect(merged.items.map((i: { quantity: number }) => i.quantity)).toEqual([3]);
    const apart = (await post(url, { variant_id: variant.id, quantity: 1, metadata: { size: 'gift' } })).json().cart;
    expect(apart.items.map((i: { quantity: number }) => i.quantity)).toEqual([3, 1]);
    expect(apart.total).toBe(6000);
  });

  it('updates a quantity, removes with 0, deletes with the parent cart; 404s unknown lines', async () => {
    const { variant } = await makeProduct(t);
    const cart = await makeCart(t, {
      items: [
        { variant_id: variant.id, quantity: 1 },
        { variant_id: variant.id, quantity: 1, metadata: { b: 1 } },
      ],
    });
    const [first, second] = cart.items;
    const changed = (
      await post(`/store/carts/${cart.id}/line-items/${first.id}`, { quantity: 4, metadata: { a: 1 } })
    ).json().cart;
    expect(changed.items[0]).toMatchObject({ quantity: 4, metadata: { a: 1 }, subtotal: 6000 });
    const removed = (await post(`/store/carts/${cart.id}/line-items/${first.id}`, { quantity: 0 })).json().cart;
    expect(removed.items.map((i: { id: string }) => i.id)).toEqual([second.id]);
    const del = await t.store('DELETE', `/store/carts/${cart.id}/line-items/${second.id}`);
    expect(del.statusCode).toBe(200);
    expect(del.json()).toMatchObject({
      id: second.id,
      object: 'line-item',
      deleted: true,
      parent: { id: cart.id, items: [], total: 0 },
    });
    const missing = await post(`/store/carts/${cart.id}/line-items/cali_nope`, { quantity: 1 });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({
      type: 'not_found',
      code: 'line_item_not_found',
      message: 'Line item with id: cali_nope was not found',
    });
    expect((await t.store('DELETE', `/store/carts/${cart.id}/line-items/cali_nope`)).statusCode).toBe(404);
    expect((await post(`/store/carts/${cart.id}/line-items/${first.id}`, { quantity: -1 })).statusCode).toBe(400);
    expect((await post(`/store/carts/${cart.id}/line-items/${first.id}`, {})).statusCode).toBe(400);
  });

  it('400s variants that do not exist, are unpublished, deleted, outside the channel or unpriced', async () => {
    const cart = await makeCart(t, {});
    const url = `/store/carts/${cart.id}/line-items`;
    const draft = (await makeProduct(t, { status: 'draft' })).variant;
    const deleted = await makeProduct(t);
    await t.admin('DELETE', `/admin/products/${deleted.product.id}`);
    const elsewhere = (await makeProduct(t, { channels: [await makeChannel(t)] })).variant;
    const unpriced = (await makeProduct(t, { prices: [{ currency_code: 'usd', amount: 100 }] })).variant;
    for (const id of ['variant_nope', draft.id, deleted.variant.id, elsewhere.id]) {
      const res = await post(url, { variant_id: id, quantity: 1 });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        type: 'invalid_data',
        code: 'variants_unavailable',
        message: `Variants ${id} do not exist or belong to a product that is not published`,
      });
    }
    const res = await post(url, { variant_id: unpriced.id, quantity: 1 });
    expect(res.json()).toEqual({
      type: 'invalid_data',
      code: 'variants_unpriced',
      message: `Variants with IDs ${unpriced.id} do not have a price`,
    });
    expect((await post(url, { variant_id: unpriced.id, quantity: 1, foo: 1 })).statusCode).toBe(400);
    expect((await t.store('GET', `/store/carts/${cart.id}`)).json().cart.items).toEqual([]);
  });

  it('refuses more than is in stock (unless backorders are allowed or stock is not managed)', async () => {
    const { variant } = await makeProduct(t, { stock: 2 });
    const cart = await makeCart(t, { items: [{ variant_id: variant.id, quantity: 2 }] });
    const more = await post(`/store/carts/${cart.id}/line-items`, { variant_id: variant.id, quantity: 1 });
    expect(more.statusCode).toBe(400);
    expect(more.json()).toEqual({
      type: 'not_allowed',
      code: 'insufficient_inventory',
      message: 'Some variant does not have the required inventory',
    });
    expect((await post(`/store/carts/${cart.id}/line-items/${cart.items[0].id}`, { quantity: 3 })).statusCode).toBe(
      400,
    );
    const backorder = (await makeProduct(t, { stock: 0, allow_backorder: true })).variant;
    const unmanaged = (await makeProduct(t, { stock: 0, manage_inventory: false })).variant;
    expect(
      (
        await t.store('POST', '/store/carts', {
          items: [
            { variant_id: backorder.id, quantity: 5 },
            { variant_id: unmanaged.id, quantity: 5 },
          ],
        })
      ).statusCode,
    ).toBe(200);
  });
});
