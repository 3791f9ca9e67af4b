import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { rows } from '../../platform/db/database.ts';
import { makeCart, makeRegion } from '../checkout/checkout.testing.ts';
import { productJsonIn } from './product-json.ts';
import { rebuildStoreDocumentsIfOutdated } from './store-documents.ts';
import { defaultChannelId, insertChannel, insertPublishableKey, makeProduct, uniq } from './products.testing.ts';

/**
 * The store reads stored documents plus live values (store-documents.ts, store-assembly.ts).
 * Here their text is held against the full SQL builder run on the tables at that moment, byte
 * for byte once the builder's whitespace is gone (the store sends compact JSON), after every kind
 * of write, and the visibility rules are checked through each writer.
 */
let t: TestApp;
let channel: string;
let region: { id: string };
beforeAll(async () => {
  t = await startTestApp();
  channel = await defaultChannelId(t);
  region = await makeRegion(t, { currency: 'eur' });
});
afterAll(() => t.close());

/**
 * What the full builder writes for this product now (with the region's calculated prices when
 * asked), as compact JSON: JSON.stringify keeps the key order (no key here looks like an index).
 */
async function built(id: string, regionId?: string): Promise<string> {
  const json = regionId ? productJsonIn('minor').storePriced : productJsonIn('minor').store;
  const region = regionId
    ? sql`with region as (select currency_code, is_tax_inclusive from regions where id = ${regionId})`
    : sql``;
  const [row] = await rows<{ body: string }>(
    t.database.db,
    sql`${region} select ${json}::text as body from products p where p.id = ${id}`,
  );
  return JSON.stringify(JSON.parse(row.body));
}

const detail = async (id: string, qs = '') => {
  const res = await t.store('GET', `/store/products/${id}${qs}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.body;
};

async function expectSameAsBuilder(id: string) {
  expect(await detail(id)).toBe(`{"product":${await built(id)}}`);
  expect(await detail(id, `?region_id=${region.id}`)).toBe(`{"product":${await built(id, region.id)}}`);
}

const rich = () => ({
  title: `Linen "shirt" ${uniq()} — ünïcode \\ / \t tab`,
  subtitle: 'sub',
  description: 'line one\nline two',
  status: 'published',
  metadata: { nested: { a: [1, 'two', null] }, quote: '"' },
  sales_channels: [{ id: channel }],
  options: [
    { title: 'Size', values: ['S', 'M'] },
    { title: 'Colour', values: ['Red'] },
  ],
  variants: [
    {
      title: 'S red',
      sku: `S-${uniq()}`,
      options: { Size: 'S', Colour: 'Red' },
      prices: [
        { currency_code: 'usd', amount: 1200 },
        { currency_code: 'eur', amount: 1100 },
      ],
      inventory_quantity: 4,
      metadata: { k: 'v' },
    },
    { title: 'M red', options: { Size: 'M', Colour: 'Red' }, prices: [{ currency_code: 'usd', amount: 1300 }] },
  ],
});

describe('store documents', () => {
  it('write the same text as the full builder, after creates, updates and stock changes', async () => {
    const a = await makeProduct(t, rich());
    const b = await makeProduct(t, { status: 'published', sales_channels: [{ id: channel }] }); // no variants
    for (const p of [a, b]) await expectSameAsBuilder(p.id);

    const [s, m] = a.variants;
    const res = await t.admin('POST', `/admin/products/${a.id}`, {
      title: 'Renamed',
      options: [{ title: 'Size', values: ['S', 'M', 'L'] }],
      variants: [
        { id: m.id, options: { Size: 'L' }, prices: [{ currency_code: 'eur', amount: 999 }] },
        { title: 'new', options: { Size: 'S' }, variant_rank: 0 },
        { id: s.id, options: { Size: 'S' }, inventory_quantity: 9 },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    await expectSameAsBuilder(a.id);

    // Stock and updated_at change outside the products module (checkout, the order desk): read live.
    t.clock.advance(60_000);
    await t.database.db.execute(
      sql`update product_variants set inventory_quantity = inventory_quantity - 3, updated_at = ${t.clock.now().toISOString()}::timestamptz where id = ${s.id}`,
    );
    // What a write's answer does on PostgreSQL (catalog-leases.ts); a write outside the API, as
    // this one is, would otherwise show once its NOTIFY arrives, a moment later.
    await t.app.catalogLeases?.settle();
    await expectSameAsBuilder(a.id);
    const list = await t.store('GET', `/store/products?id=${a.id}&id=${b.id}&region_id=${region.id}`);
    expect(list.body).toBe(
      `{"products":[${await built(a.id, region.id)},${await built(b.id, region.id)}],"count":2,"limit":50,"offset":0}`,
    );
  });

  it('show the stock a checkout left, at once', async () => {
    const p = await makeProduct(t, {
      status: 'published',
      sales_channels: [{ id: channel }],
      variants: [{ title: 'one', prices: [{ currency_code: 'eur', amount: 500 }], inventory_quantity: 5 }],
    });
    // Read first: on the embedded database this answer is now kept in memory (store-cache.ts).
    expect(JSON.parse(await detail(p.id)).product.variants[0].inventory_quantity).toBe(5);
    const listed = async () =>
      JSON.parse((await t.store('GET', `/store/products?id=${p.id}`)).body).products[0].variants[0].inventory_quantity;
    expect(await listed()).toBe(5);
    const cart = await makeCart(t, {
      email: 'doc@example.com',
      region_id: region.id,
      items: [{ variant_id: p.variants[0].id, quantity: 2 }],
    });
    const done = await t.store('POST', `/store/carts/${cart.id}/complete`);
    expect(done.statusCode, done.body).toBe(200);
    expect(JSON.parse(await detail(p.id)).product.variants[0].inventory_quantity).toBe(3);
    expect(await listed()).toBe(3);
    await expectSameAsBuilder(p.id);
  });

  it('never show an unpublished, deleted or out-of-channel product, whichever module wrote it', async () => {
    const sc = await insertChannel(t);
    const key = await insertPublishableKey(t, [channel, sc]);
    const p = await makeProduct(t, { ...rich(), sales_channels: [{ id: sc }] });
    const get = (url: string) => t.store('GET', url, undefined, { key });
    let channels = [channel, sc];
    const onlyIn = async (where: string | null) => {
      for (const id of channels) {
        const res = await get(`/store/products?sales_channel_id=${id}&limit=1000`);
        expect(
          res.json().products.some((x: { id: string }) => x.id === p.id),
          `in ${id}`,
        ).toBe(where === id);
      }
      const both = (await get(`/store/products?limit=1000`)).json().products;
      expect(both.filter((x: { id: string }) => x.id === p.id)).toHaveLength(where ? 1 : 0);
      expect((await get(`/store/products/${p.id}`)).statusCode).toBe(where ? 200 : 404);
    };
    await onlyIn(sc);
    await t.admin('POST', `/admin/products/${p.id}`, { sales_channels: [{ id: channel }] });
    await onlyIn(channel);
    await t.admin('POST', `/admin/products/${p.id}`, { status: 'draft' });
    await onlyIn(null);
    await t.admin('POST', `/admin/products/${p.id}`, { status: 'published' });
    await onlyIn(channel);
    await t.admin('POST', `/admin/sales-channels/${sc}/products`, { add: [p.id] });
    await t.admin('POST', `/admin/sales-channels/${channel}/products`, { remove: [p.id] });
    await onlyIn(sc);
    await t.admin('DELETE', `/admin/sales-channels/${sc}`);
    channels = [channel];
    await onlyIn(null);
    await t.admin('POST', `/admin/products/${p.id}`, { sales_channels: [{ id: channel }] });
    await onlyIn(channel);
    await t.admin('DELETE', `/admin/products/${p.id}`);
    await onlyIn(null);
  });

  it('are all built again at start when they were made for another shape', async () => {
    const p = await makeProduct(t, rich());
    const draft = await makeProduct(t, { ...rich(), status: 'draft' });
    await t.database.db.execute(sql`delete from store_listing`);
    await t.database.db.execute(sql`delete from store_documents`);
    await t.database.db.execute(sql`update store_documents_state set shape = shape - 1`);
    expect((await t.store('GET', `/store/products/${p.id}`)).statusCode).toBe(404);
    expect(await rebuildStoreDocumentsIfOutdated(t.database.db)).toBeGreaterThanOrEqual(1);
    await expectSameAsBuilder(p.id);
    expect((await t.store('GET', `/store/products/${draft.id}`)).statusCode).toBe(404);
    expect(await rebuildStoreDocumentsIfOutdated(t.database.db)).toBe(0); // current now
  });
});
