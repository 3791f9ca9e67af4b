import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../src/platform/db/database.ts';
import { findSellableVariants } from '../src/modules/carts/variant-queries.ts';
import { findCart, lockCartForCheckout, lockCartForEdit } from '../src/modules/checkout/cart-read.ts';
import { reservationParts } from '../src/modules/checkout/inventory-queries.ts';
import { createProduct } from '../src/modules/products/service.ts';
import { readStoreList, readStoreProduct } from '../src/modules/products/store-queries.ts';
import { makeCart, makeRegion } from '../src/modules/checkout/checkout.testing.ts';
import { defaultChannelId } from '../src/modules/products/products.testing.ts';
import { startTestApp, type TestApp } from './app.ts';
import { nodes, type PlanNode, planText, plansOf } from './plans.ts';

/**
 * The hot statements' plans on a catalog written through the service layer, with no ANALYZE run
 * by anyone (the statistics pass is not started in tests and the tables were never analyzed):
 * each must be index lookups, never a scan of a catalog table repeated per row (the nested
 * loop that made the store list 125 ms at 1,000 products) nor a whole-table scan of one.
 */
const PRODUCTS = 240;
const CATALOG = new Set([
  'products',
  'product_variants',
  'prices',
  'product_options',
  'product_sales_channels',
  'store_documents',
  'store_listing',
  'carts',
  'cart_line_items',
  // The store's per-channel stock (store-queries.ts channelQuantity) reads these per variant.
  'inventory_levels',
  'product_variant_inventory_items',
  'inventory_items',
]);

let t: TestApp;
let channel: string;
let region: { id: string };
let productIds: string[] = [];
let variantIds: string[] = [];
beforeAll(async () => {
  t = await startTestApp();
  channel = await defaultChannelId(t);
  region = await makeRegion(t, { currency: 'eur' });
  for (let i = 0; i < PRODUCTS; i++) {
    const p = await createProduct(t.ctx, {
      title: `Plan ${['linen', 'wool', 'silk'][i % 3]} shirt ${i}`,
      status: i % 10 === 9 ? 'draft' : 'published',
      sales_channels: [{ id: channel }],
      options: [{ title: 'Size', values: ['S', 'M'] }],
      variants: ['S', 'M'].map((s) => ({
        title: s,
        options: { Size: s },
        prices: [{ currency_code: 'eur', amount: 1000 + i }],
        inventory_quantity: 50,
      })),
    } as never);
    productIds.push(p.id);
    variantIds.push(...p.variants.map((v) => v.id));
  }
  productIds = productIds.sort();
  variantIds = variantIds.sort();
}, 240_000);
afterAll(() => t.close());

/** Every Seq Scan of a catalog table, marked when it would run once per outer row. */
function scans(plan: PlanNode, looped = false): { table: string; looped: boolean }[] {
  const here =
    plan['Node Type'] === 'Seq Scan' && CATALOG.has(plan['Relation Name'] ?? '')
      ? [{ table: plan['Relation Name']!, looped }]
      : [];
  const children = (plan.Plans ?? []).flatMap((child) => {
    const rel = child['Parent Relationship'];
    const inner = (plan['Node Type'] === 'Nested Loop' && rel === 'Inner') || rel === 'SubPlan';
    return scans(child, looped || inner);
  });
  return [...here, ...children];
}

async function expectIndexOnly(name: string, fn: Parameters<typeof plansOf>[1], allowOnce: string[] = []) {
  const plans = await plansOf(t.database.db, fn);
  expect(plans.length, name).toBeGreaterThan(0);
  for (const plan of plans) {
    const bad = scans(plan).filter((s) => s.looped || !allowOnce.includes(s.table));
    expect(bad, `${name}\n${planText(plan)}`).toEqual([]);
  }
  return plans;
}

describe('hot statements plan well without statistics', () => {
  it('the catalog was never analyzed', async () => {
    const analyzed = await rows<{ relname: string }>(
      t.database.db,
      sql`select relname from pg_stat_user_tables
          where relname in ('products', 'product_variants', 'store_documents', 'store_listing')
            and (last_analyze is not null or last_autoanalyze is not null)`,
    );
    expect(analyzed).toEqual([]);
  });

  it('store list (plain, with region, filtered by id, several channels) and product by id', async () => {
    const page = { limit: 20, offset: 0 };
    const plain = await expectIndexOnly('plain list', (e) => readStoreList(e, { channelIds: [channel] }, page));
    // The page comes from the ordered index walk (store_listing_page), not from sorting the channel.
    expect([...nodes(plain[0])].some((n) => n['Function Name'] === 'store_listing_page')).toBe(true);
    await expectIndexOnly('list with region', (e) => readStoreList(e, { channelIds: [channel] }, page, region.id));
    await expectIndexOnly('list by id', (e) =>
      readStoreList(e, { channelIds: [channel], id: productIds.slice(0, 3) }, page),
    );
    await expectIndexOnly('product by id', (e) => readStoreProduct(e, productIds[7], [channel], region.id));
    // Several channels gather all their rows once (they are all counted), then page.
    await expectIndexOnly('two channels', (e) => readStoreList(e, { channelIds: [channel, 'sc_other'] }, page), [
      'store_listing',
    ]);
  });

  it('q search reads its matches once', async () => {
    // At this size a scan of store_listing may be the cheap way to evaluate the LIKE; never per row.
    await expectIndexOnly(
      'q search',
      (e) => readStoreList(e, { channelIds: [channel], q: 'linen shirt 1' }, { limit: 20, offset: 0 }),
      ['store_listing'],
    );
  });

  it('cart and checkout reads', async () => {
    const cart = await makeCart(t, {
      email: 'plans@example.com',
      region_id: region.id,
      items: [{ variant_id: variantIds[3], quantity: 1 }],
    });
    await expectIndexOnly('sellable variants', (e) => findSellableVariants(e, variantIds.slice(0, 4), 'eur', channel));
    await expectIndexOnly('cart view', (e) => findCart(e, cart.id));
    await expectIndexOnly('checkout lock', (e) => lockCartForCheckout(e, cart.id));
    await expectIndexOnly('line change lock', (e) => lockCartForEdit(e, cart.id, variantIds.slice(2, 4)));
    const lines = [
      { id: 'ordli_plan_1', variant_id: variantIds[5], quantity: 2 },
      { id: 'ordli_plan_2', variant_id: variantIds[3], quantity: 1 },
    ];
    for (const [, reserve] of reservationParts(lines, channel, new Date()))
      await expectIndexOnly('reserve stock', (e) => e.execute(reserve));
  });

  it('the plain list pages in product order across the whole channel', async () => {
    const published = await rows<{ id: string }>(
      t.database.db,
      sql`select id from products where status = 'published' and deleted_at is null order by id`,
    );
    const seen: string[] = [];
    for (let offset = 0; offset < published.length + 50; offset += 50) {
      const res = await t.store('GET', `/store/products?limit=50&offset=${offset}`);
      seen.push(...res.json().products.map((p: { id: string }) => p.id));
    }
    expect(seen).toEqual(published.map((r) => r.id));
  });
});
