import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { eventually } from '../../../test/processes.ts';
import { rows } from '../../platform/db/database.ts';
import { makeCart, makeProduct, makeRegion } from '../checkout/checkout.testing.ts';
import { STORE_CATALOG_CHANNEL } from './catalog-leases.ts';

/**
 * A stock move names its products (migration store_stock_products), and lets go only of the kept
 * answers holding one of them (store-cache.ts `forget`): an order of one product leaves every
 * other product's page kept, while the sold product's pages show the new stock on the very next
 * read. Over a socket, so a kept answer shows as a repeat's (repeat-reads.ts, `answered`),
 * which hands out only what the cache still holds. On PostgreSQL the checkout's own instance
 * learns its products from the NOTICEs of its statements (catalog-leases.ts).
 */
let t: TestApp;
let base: string;
let heard: string[] = [];
/** What the leases told the caches (PostgreSQL): `listing`, `stock <ids>`, or `stock (any)`. */
const changes: string[] = [];
const unlisten: (() => Promise<void>)[] = [];
/** A channel of this test's own: its marker must not reach the cache (an unknown payload starts it over). */
const MARKERS = 'emporium_test_markers';

beforeAll(async () => {
  t = await startTestApp();
  await makeRegion(t);
  base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  for (const channel of [STORE_CATALOG_CHANNEL, MARKERS])
    unlisten.push(await t.database.listen(channel, (payload) => heard.push(payload)));
  t.app.catalogLeases?.onChange((kind, products) =>
    changes.push(kind === 'listing' ? 'listing' : products ? `stock ${[...products].sort().join(' ')}` : 'stock (any)'),
  );
});
afterAll(async () => {
  for (const stop of unlisten) await stop();
  await t.close();
});

/** Waits until a NOTIFY sent now has arrived: every one committed before it has too (NOTIFYs arrive in commit order). */
async function drained(): Promise<void> {
  const marker = `marker ${Math.random()}`;
  await t.database.db.execute(sql`select pg_notify(${MARKERS}, ${marker})`);
  await eventually(async () => heard.includes(marker), 2_000, 'the marker NOTIFY');
}

/** The stock payloads a write sends (leases' own messages left out). */
async function stockPayloadsOf(write: () => Promise<unknown>): Promise<string[]> {
  await drained(); // what earlier writes sent is not counted
  heard = [];
  await write();
  await drained();
  return [...new Set(heard.filter((p) => p === 's' || p.startsWith('s ')))];
}

const exec = (q: ReturnType<typeof sql>) => () => t.database.db.execute(q);

const read = async (url: string) => {
  const res = await fetch(`${base}${url}`, { headers: { 'x-publishable-api-key': t.publishableKey } });
  const text = await res.text();
  expect(res.status, text).toBe(200);
  return JSON.parse(text);
};

/** Whether a read of `url` was answered from what the cache kept (a repeat's answer). */
async function kept(url: string): Promise<boolean> {
  const before = t.app.repeatReads.answered;
  await read(url);
  return t.app.repeatReads.answered === before + 1;
}

/** Reads `url` until it is kept (the first read keeps it; on PostgreSQL a late NOTIFY of the setup may let it go once). */
async function keep(url: string): Promise<void> {
  for (let i = 0; !(await kept(url)); i++) expect(i, `${url} is kept`).toBeLessThan(5);
}

const itemOf = async (variantId: string) =>
  (
    await rows<{ id: string }>(
      t.database.db,
      sql`select inventory_item_id as id from product_variant_inventory_items where variant_id = ${variantId}`,
    )
  )[0].id;

describe('stock moves and the store answer cache', () => {
  it("a stock move's NOTIFY names the products whose stock moved, and a move of nothing shown says nothing", async () => {
    const { product, variant } = await makeProduct(t, { stock: 5 });
    const item = await itemOf(variant.id);
    expect(
      await stockPayloadsOf(
        exec(
          sql`update inventory_levels set stocked_quantity = stocked_quantity + 1 where inventory_item_id = ${item}`,
        ),
      ),
    ).toEqual([`s ${product.id}`]);
    expect(
      await stockPayloadsOf(
        exec(sql`update product_variants set inventory_quantity = inventory_quantity - 1 where id = ${variant.id}`),
      ),
    ).toEqual([`s ${product.id}`]);
    expect(
      await stockPayloadsOf(exec(sql`update inventory_levels set stocked_quantity = 1 where id = 'none'`)),
    ).toEqual([]);
    // Which channels a location serves may move any product's stock.
    expect(await stockPayloadsOf(exec(sql`update stock_locations set name = name`))).toEqual(['s']);
  });

  it("an order lets go of the sold product's answers only: every other page stays kept, the sold one shows the new stock at once", async () => {
    if (t.app.catalogLeases) await eventually(async () => t.app.catalogLeases!.holds(), 5_000, 'the lease');
    const sold = await makeProduct(t, { stock: 5 });
    const other = await makeProduct(t, { stock: 5 });
    const soldPage = `/store/products/${sold.product.id}`;
    const otherPage = `/store/products/${other.product.id}`;
    const both = `/store/products?id[]=${sold.product.id}&id[]=${other.product.id}`;
    const otherOnly = `/store/products?id[]=${other.product.id}`;
    await drained(); // the NOTIFYs of the products' creation are heard (PostgreSQL hears them after the answer)
    for (const url of [soldPage, otherPage, both, otherOnly]) await keep(url);
    const stockIn = (body: { products?: { id: string; variants: { inventory_quantity: number }[] }[] }) =>
      body.products?.find((p) => p.id === sold.product.id)?.variants[0].inventory_quantity;

    const cart = await makeCart(t, {
      email: 'stock@example.com',
      items: [{ variant_id: sold.variant.id, quantity: 2 }],
    });
    changes.length = 0;
    const done = await t.store('POST', `/store/carts/${cart.id}/complete`);
    expect(done.statusCode, done.body).toBe(200);

    // Read at once after the answer, before this test waits for any NOTIFY.
    const soldNow = await read(soldPage);
    expect(soldNow.product.variants[0].inventory_quantity).toBe(3);
    expect(stockIn(await read(both))).toBe(3);
    // On PostgreSQL a lease taken again (a renewal late on a loaded machine) starts everything
    // over, as it must: then whether the other pages were kept says nothing about the order.
    const othersKept = async () => {
      const kept1 = await kept(otherPage);
      const kept2 = await kept(otherOnly);
      if (!changes.includes('listing')) expect([kept1, kept2]).toEqual([true, true]);
    };
    await othersKept();
    // The NOTIFY arrives too: it lets go of the sold product's answers again, never of the others.
    await drained();
    await othersKept();
    expect((await read(soldPage)).product.variants[0].inventory_quantity).toBe(3);
    // What the order told this instance's caches (PostgreSQL: its own NOTICEs, then its NOTIFY): the sold product only.
    if (t.app.catalogLeases) expect(changes).toContain(`stock ${sold.product.id}`);
    expect(changes.filter((c) => c.startsWith('stock') && c !== `stock ${sold.product.id}`)).toEqual([]);
  });

  it('a change of what the store lists still starts every answer over', async () => {
    if (t.app.catalogLeases) await eventually(async () => t.app.catalogLeases!.holds(), 5_000, 'the lease');
    const a = await makeProduct(t, { stock: 5 });
    const page = `/store/products/${a.product.id}`;
    await drained();
    await keep(page);
    const renamed = await t.admin('POST', `/admin/products/${a.product.id}`, { title: 'Renamed' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect((await read(page)).product.title).toBe('Renamed');
  });
});
