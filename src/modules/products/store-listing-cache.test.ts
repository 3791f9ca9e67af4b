import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { makeProduct } from '../checkout/checkout.testing.ts';
import { STORE_CATALOG_CHANNEL } from './catalog-leases.ts';
import { makeCategory, makeCollection } from './products.testing.ts';

/**
 * The catalog's NOTIFY tells a stock move (`s`) from a change of what the store lists (empty), so
 * answers that show no stock (categories and collections with their products, `fields=handle`
 * lists) outlive the orders (store-cache.ts, `listing`) and still follow every listing change.
 */
let t: TestApp;
let heard: string[] = [];
let unlisten: () => Promise<void>;

beforeAll(async () => {
  t = await startTestApp();
  unlisten = await t.database.listen(STORE_CATALOG_CHANNEL, (payload) => heard.push(payload));
});
afterAll(async () => {
  await unlisten();
  await t.close();
});

/** Waits until a NOTIFY sent now has arrived: every one committed before it has too. */
async function drained(): Promise<void> {
  const marker = `marker ${Math.random()}`;
  await t.database.db.execute(sql`select pg_notify(${STORE_CATALOG_CHANNEL}, ${marker})`);
  for (let i = 0; i < 400 && !heard.includes(marker); i++) await new Promise((r) => setTimeout(r, 5));
  expect(heard).toContain(marker);
}

/** The catalog payloads a write sends (leases' own messages left out), a stock move's products left out (`s`). */
async function payloadsOf(write: () => Promise<unknown>): Promise<string[]> {
  await drained(); // what earlier writes sent is not counted
  heard = [];
  await write();
  await drained();
  return [...new Set(heard.filter((p) => p === '' || p === 's' || p.startsWith('s ')).map((p) => p.slice(0, 1)))];
}

const store = (url: string) => t.inject({ method: 'GET', url, headers: { 'x-publishable-api-key': t.publishableKey } });

describe('the store listing cache', () => {
  it('hears a variant stock move as stock only, and any other change of the variant as a listing change', async () => {
    const { variant } = await makeProduct(t, { stock: 5 });
    const exec = (q: ReturnType<typeof sql>) => () => t.database.db.execute(q);
    expect(
      await payloadsOf(
        exec(
          sql`update product_variants set inventory_quantity = inventory_quantity - 1, updated_at = now() where id = ${variant.id}`,
        ),
      ),
    ).toEqual(['s']);
    expect(await payloadsOf(exec(sql`update product_variants set title = 'L' where id = ${variant.id}`))).toEqual(['']);
    // Both at once: a listing change (the variant's level follows its number, a stock change beside it).
    expect(
      await payloadsOf(
        exec(sql`update product_variants set inventory_quantity = 9, title = 'XL' where id = ${variant.id}`),
      ),
    ).toContain('');
    // No row updated: nothing changed, and nothing is said to have changed (store_stock_products).
    expect(await payloadsOf(exec(sql`update product_variants set title = 'x' where id = 'none'`))).toEqual([]);
  });

  it('answers categories and collections with their products after an order moved stock, and follows every listing change', async () => {
    const collection = await makeCollection(t);
    const category = await makeCategory(t);
    const { product, variant } = await makeProduct(t, { stock: 5 });
    const linked = await t.admin('POST', `/admin/products/${product.id}`, {
      collection_id: collection.id,
      categories: [{ id: category.id }],
    });
    expect(linked.statusCode, linked.body).toBe(200);
    const categoryTitles = async () => {
      const res = await store(`/store/product-categories?id[]=${category.id}&fields=*products`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().product_categories[0].products.map((p: { title: string }) => p.title);
    };
    const collectionTitles = async () => {
      const res = await store(`/store/collections/${collection.id}?fields=*products`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().collection.products.map((p: { title: string }) => p.title);
    };
    expect(await categoryTitles()).toEqual([product.title]);
    expect(await collectionTitles()).toEqual([product.title]);

    // Stock moves: the same answers (kept or not, they show no stock).
    const stock = await payloadsOf(() =>
      t.database.db.execute(sql`update product_variants set inventory_quantity = 3 where id = ${variant.id}`),
    );
    expect(stock).toEqual(['s']);
    expect(await categoryTitles()).toEqual([product.title]);

    // A title change shows at once in both.
    const renamed = await t.admin('POST', `/admin/products/${product.id}`, { title: `${product.title} (new)` });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(await categoryTitles()).toEqual([`${product.title} (new)`]);
    expect(await collectionTitles()).toEqual([`${product.title} (new)`]);

    // Unpublished: gone from both.
    const draft = await t.admin('POST', `/admin/products/${product.id}`, { status: 'draft' });
    expect(draft.statusCode, draft.body).toBe(200);
    expect(await categoryTitles()).toEqual([]);
    expect(await collectionTitles()).toEqual([]);
  });

  it('keeps a handles list across a stock move, and follows a new product', async () => {
    const handles = async () => {
      const res = await store('/store/products?fields=handle&limit=200');
      expect(res.statusCode, res.body).toBe(200);
      return res.json().products.map((p: { handle: string }) => p.handle) as string[];
    };
    const { product, variant } = await makeProduct(t, { stock: 5 });
    expect(await handles()).toContain(product.handle);
    await t.database.db.execute(sql`update product_variants set inventory_quantity = 1 where id = ${variant.id}`);
    expect(await handles()).toContain(product.handle);
    const { product: next } = await makeProduct(t);
    expect(await handles()).toContain(next.handle);
  });
});
