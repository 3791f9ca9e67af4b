import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { medusaSdks, type Sdk } from '../../../test/medusa-sdk.ts';
import { statementsOf } from '../../../test/statements.ts';
import { rows } from '../../platform/db/database.ts';
import { defaultChannelId, expectSchema, outboxEvents, uniq } from './products.testing.ts';
import { BatchProductsResponse } from './schema.ts';

/**
 * `POST /admin/products/batch` with its creates (createProductsIn), updates (updateProductsIn)
 * and deletes (deleteProductsIn) all set-based: the same work done one product per request and
 * in one batch leaves the same products, events, stock and store listing; one bad row refuses
 * the batch with nothing written; a delete of an id of no live product is Medusa's no-op; and
 * the statements sent do not grow with the number of creates or deletes. Over HTTP and through
 * Medusa's JS SDK (`sdk.admin.product.batch`).
 */
let t: TestApp;
let channel: string;
let tag: string;
let dashboard: Sdk;
beforeAll(async () => {
  t = await startTestApp();
  channel = await defaultChannelId(t);
  const made = await t.admin('POST', '/admin/product-tags', { value: `batch-${uniq()}` });
  expect(made.statusCode, made.body).toBe(200);
  tag = made.json().product_tag.id;
  dashboard = (await medusaSdks(t)).dashboard;
}, 300_000);
afterAll(() => t.close());

type Product = { id: string; title: string; variants: { id: string; sku: string }[] };
type BatchBody = { create?: unknown[]; update?: { id: string }[]; delete?: string[] };
type Via = 'http' | 'sdk';

/** The batch over HTTP, or through the SDK (whose refusals are thrown as FetchErrors), as `{ status, body }`. */
async function batch(via: Via, body: BatchBody): Promise<{ status: number; body: Record<string, unknown> }> {
  if (via === 'http') {
    const res = await t.admin('POST', '/admin/products/batch', body as Record<string, unknown>);
    return { status: res.statusCode, body: res.json() };
  }
  try {
    return { status: 200, body: (await dashboard.admin.product.batch(body as never)) as never };
  } catch (err) {
    const e = err as { status?: number; message: string };
    return { status: e.status ?? 0, body: { message: e.message } };
  }
}

/** A product as a merchant sends it; every third is a draft, every fourth sells without stock, some carry a tag. */
const newProduct = (prefix: string, n: number) => {
  const title = `${prefix} item ${n}`;
  return {
    title,
    status: n % 3 ? 'published' : 'draft',
    sales_channels: [{ id: channel }],
    ...(n % 2 ? { tags: [{ id: tag }] } : {}),
    options: [{ title: 'Size', values: ['S', 'M'] }],
    variants: ['S', 'M'].map((size) => ({
      title: size,
      sku: `${prefix}-${n}-${size}`,
      options: { Size: size },
      manage_inventory: n % 4 !== 0,
      inventory_quantity: n,
      prices: [{ currency_code: 'eur', amount: 1000 + n }],
    })),
  };
};

/** The same work for a world named `prefix`: products made first, then the creates, updates and deletes. */
async function world(prefix: string) {
  const seeded: Product[] = [];
  for (let n = 0; n < 6; n++) {
    const res = await t.admin('POST', '/admin/products', newProduct(prefix, 100 + n));
    expect(res.statusCode, res.body).toBe(200);
    seeded.push(res.json().product);
  }
  const create = Array.from({ length: 12 }, (_, n) => newProduct(prefix, n));
  const update = [
    {
      id: seeded[0].id,
      title: `${prefix} renamed`,
      variants: [{ id: seeded[0].variants[0].id, inventory_quantity: 40 }],
    },
    { id: seeded[1].id, status: 'draft' },
    { id: seeded[2].id, variants: [{ id: seeded[2].variants[1].id, prices: [{ currency_code: 'eur', amount: 5 }] }] },
  ];
  const remove = [seeded[3].id, seeded[4].id];
  return { seeded, create, update, delete: remove };
}

/** Ids become `<prefix>#<n>` by first appearance, the world's name becomes W, timestamps T: what must match. */
function normalize(value: unknown, prefix: string): unknown {
  const seen = new Map<string, string>();
  const text = JSON.stringify(value)
    .replace(new RegExp(prefix, 'gi'), 'W')
    .replace(/\b(prod|variant|opt|optval|price|img|evt|iitem|ilev|pvitem)_[0-9A-Za-z]+/g, (id, kind) => {
      if (!seen.has(id)) seen.set(id, `${kind}#${seen.size}`);
      return seen.get(id)!;
    })
    .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, 'T');
  return JSON.parse(text);
}

/** What a world left: its products (admin JSON, by title), events, stock and store list, normalized. */
async function stateOf(prefix: string, ids: string[]) {
  const products = [];
  for (const id of ids) {
    const res = await t.admin('GET', `/admin/products/${id}`);
    products.push(res.statusCode === 200 ? res.json().product : { gone: res.statusCode });
  }
  const events = [];
  for (const id of ids) events.push(...(await outboxEvents(t, id)));
  const stock = await rows(
    t.database.db,
    sql`select v.sku, v.inventory_quantity, i.sku as item_sku, l.stocked_quantity, v.deleted_at is null as live
      from product_variants v
      left join product_variant_inventory_items k on k.variant_id = v.id
      left join inventory_items i on i.id = k.inventory_item_id
      left join inventory_levels l on l.inventory_item_id = i.id
      where v.product_id = any(${sql.param(ids)}::text[]) order by v.sku`,
  );
  const store = (await t.store('GET', `/store/products?limit=100&${ids.map((id) => `id[]=${id}`).join('&')}`)).json();
  const byTitle = (a: { title: string }, b: { title: string }) => a.title.localeCompare(b.title);
  return normalize(
    {
      products: products.filter((p) => !p.gone).sort(byTitle),
      gone: products.filter((p) => p.gone).length,
      events,
      stock,
      store: { count: store.count, products: store.products.sort(byTitle) },
    },
    prefix,
  );
}

/** Every channel's counter equals its live, published, linked products (the triggers kept it exact). */
async function expectChannelCountsExact() {
  const off = await rows(
    t.database.db,
    sql`select c.sales_channel_id from product_channel_counts c where c.visible_products <> (
      select count(*) from product_sales_channels l join products p on p.id = l.product_id
      where l.sales_channel_id = c.sales_channel_id and p.status = 'published' and p.deleted_at is null)`,
  );
  expect(off).toEqual([]);
}

describe.each<Via>(['http', 'sdk'])('POST /admin/products/batch, set-based (%s)', (via) => {
  it('leaves the same products, events, stock and store list as the same work one product at a time', async () => {
    const one = `Zqone${uniq()}`;
    const many = `Zqmany${uniq()}`;

    const single = await world(one);
    const singleAnswers = { created: [] as Product[], updated: [] as Product[] };
    for (const body of single.create)
      singleAnswers.created.push((await t.admin('POST', '/admin/products', body)).json().product);
    for (const { id, ...body } of single.update)
      singleAnswers.updated.push((await t.admin('POST', `/admin/products/${id}`, body)).json().product);
    for (const id of single.delete) expect((await t.admin('DELETE', `/admin/products/${id}`)).statusCode).toBe(200);

    const batched = await world(many);
    // A store list read (and cached) before the batch: its answer must follow the batch's commit.
    const storeList = `/store/products?${batched.seeded.map((p) => `id[]=${p.id}`).join('&')}`;
    const listed = async () =>
      (await t.store('GET', storeList))
        .json()
        .products.map((p: Product) => p.title)
        .sort() as string[];
    expect(await listed()).toHaveLength(4);
    const res = await batch(via, { create: batched.create, update: batched.update, delete: batched.delete });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expectSchema(BatchProductsResponse, res.body);
    const body = res.body as { created: Product[]; updated: Product[]; deleted: unknown };
    expect(body.deleted).toEqual({ ids: batched.delete, object: 'product', deleted: true });
    // The answers: each what one at a time answered, in the request's order.
    expect(normalize({ created: body.created, updated: body.updated }, many)).toEqual(normalize(singleAnswers, one));

    const ids = (w: typeof single, made: Product[]) => [...w.seeded.map((p) => p.id), ...made.map((p) => p.id)];
    const after = await stateOf(many, ids(batched, body.created));
    expect(after).toEqual(await stateOf(one, ids(single, singleAnswers.created)));
    // Sanity of what was compared: 6 + 12 products, two deleted, the drafts out of the store.
    expect((after as { gone: number }).gone).toBe(2);
    expect((after as { store: { count: number } }).store.count).toBe(9);
    expect(await listed()).toEqual([`${many} renamed`]);
    await expectChannelCountsExact();
  }, 180_000);

  const bad: [string, (prefix: string) => unknown, string][] = [
    [
      'a variant choosing a value its option lacks',
      (p) => ({ ...newProduct(p, 50), variants: [{ title: 'XL', options: { Size: 'XL' } }] }),
      'Variant "XL" uses value "XL" for option "Size", which is not one of its values',
    ],
    [
      'a currency ISO 4217 does not know',
      (p) => ({ ...newProduct(p, 50), variants: [{ title: 'S', prices: [{ currency_code: 'xxx', amount: 1 }] }] }),
      'Invalid currency_code: xxx is not an ISO 4217 currency',
    ],
    [
      'a SKU a live product holds',
      (p) => ({ ...newProduct(p, 100), title: `${p} other` }),
      'Product variant with sku: ',
    ],
    ['an unknown tag', (p) => ({ ...newProduct(p, 50), tags: [{ id: 'ptag_nope' }] }), 'ptag_nope'],
  ];
  it.each(bad)(
    'writes nothing when one create is bad: %s',
    async (_case, badRow, message) => {
      const prefix = `Zqbad${uniq()}`;
      const w = await world(prefix);
      const count = async (table: string) =>
        Number((await rows<{ n: number }>(t.database.db, sql.raw(`select count(*) as n from ${table}`)))[0].n);
      const tables = ['products', 'product_variants', 'prices', 'inventory_items', 'inventory_levels', 'store_listing'];
      const snapshot = async () => ({
        rows: await Promise.all(tables.map(count)),
        live: await count('products where deleted_at is null'),
        events: (await outboxEvents(t)).length,
        seeded: await stateOf(
          prefix,
          w.seeded.map((p) => p.id),
        ),
      });
      const before = await snapshot();
      const res = await batch(via, { create: [...w.create, badRow(prefix)], update: w.update, delete: w.delete });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(String(res.body.message)).toContain(message);
      expect(await snapshot()).toEqual(before);
      await expectChannelCountsExact();
    },
    120_000,
  );

  it('answers a delete of an unknown or already deleted id as deleted, and changes nothing for it (Medusa)', async () => {
    const w = await world(`Zqdel${uniq()}`);
    const [doomed, earlier, kept] = w.seeded;
    expect((await t.admin('DELETE', `/admin/products/${earlier.id}`)).statusCode).toBe(200);
    const events = (await outboxEvents(t)).length;
    const res = await batch(via, { delete: ['prod_nope', doomed.id, earlier.id, doomed.id] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      created: [],
      updated: [],
      deleted: { ids: ['prod_nope', doomed.id, earlier.id], object: 'product', deleted: true },
    });
    expect((await t.admin('GET', `/admin/products/${doomed.id}`)).statusCode).toBe(404);
    expect((await t.admin('GET', `/admin/products/${kept.id}`)).statusCode).toBe(200);
    // One event, for the one product that was live; none for the others.
    expect((await outboxEvents(t)).slice(events)).toEqual([{ name: 'product.deleted', payload: { id: doomed.id } }]);
    // The single route keeps its 404 for an id of no live product.
    expect((await t.admin('DELETE', `/admin/products/${earlier.id}`)).statusCode).toBe(404);
  }, 120_000);
});

describe('POST /admin/products/batch statements', () => {
  it('sends as many statements for 25 creates or deletes as for 3', async () => {
    const prefix = `Zqcount${uniq()}`;
    let n = 0;
    const made: string[] = [];
    const creates = (count: number) => async () => {
      const res = await batch('http', { create: Array.from({ length: count }, () => newProduct(prefix, n++)) });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      made.push(...(res.body.created as Product[]).map((p) => p.id));
      return count;
    };
    const deletes = (count: number) => async () => {
      const res = await batch('http', { delete: made.splice(0, count) });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return count;
    };
    const few = await statementsOf(t.database, creates(3));
    const many = await statementsOf(t.database, creates(25));
    const fewGone = await statementsOf(t.database, deletes(3));
    const manyGone = await statementsOf(t.database, deletes(25));
    // 3 products' (at most 6) stock-managed variants get their stock from the insert trigger
    // (bulk-create.ts TRIGGER_STOCK_UP_TO), 25 products' from the set-based path's eight statements.
    const slack = t.database.kind === 'postgres' ? 4 : 0; // the read lease's renewals (catalog-leases.ts)
    expect(many.statements).toBeLessThanOrEqual(few.statements + 8 + slack);
    expect(manyGone.statements).toBeLessThanOrEqual(fewGone.statements + slack);
    // One product at a time sent some twenty statements per create.
    expect(many.statements).toBeLessThan(60);
  }, 180_000);
});
