import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { medusaSdks, type Sdk } from '../../../test/medusa-sdk.ts';
import { rows } from '../../platform/db/database.ts';
import { makeProduct, makeRegion, uniq } from '../checkout/checkout.testing.ts';
import { placeOrder } from '../orders/orders.testing.ts';
import { JobRunner } from '../../platform/jobs/runner.ts';
import { productImportJob } from './import-job.ts';
import { readCsv } from './product-csv.ts';

/**
 * Product import (upload → preview → confirm → job) and export through Medusa's JS SDK
 * (`sdk.admin.product.import`, `confirmImport`, `export`) and HTTP, on the running job engine.
 */
let t: TestApp;
let sdk: Sdk;
beforeAll(async () => {
  t = await startTestApp();
  ({ dashboard: sdk } = await medusaSdks(t));
});
afterAll(() => t.close());

// biome-ignore lint/suspicious/noExplicitAny: product JSON as the admin API answers it, read field by field
type Json = Record<string, any>;

const csvFile = (text: string, name = 'products.csv') => new File([text], name, { type: 'text/csv' });

async function job(id: string) {
  const res = await t.admin('GET', `/admin/jobs/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().job;
}

async function download(id: string, kind: 'result' | 'errors') {
  const res = await t.admin('GET', `/admin/jobs/${id}/files/${kind}`);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/csv/);
  return res.body;
}

async function productByHandle(handle: string) {
  const res = await t.admin('GET', `/admin/products?handle=${handle}`);
  return res.json().products[0];
}

async function countProducts(): Promise<number> {
  const [r] = await rows<{ n: number }>(
    t.database.db,
    sql`select count(*)::int as n from products where deleted_at is null`,
  );
  return r.n;
}

// Medusa 2.x export columns (normalize-for-export: "Product Hs Code", "Variant Price EUR", numbered lists).
const MEDUSA_EXPORT = [
  'Product Id,Product Handle,Product Title,Product Subtitle,Product Description,Product Status,Product Thumbnail,Product Weight,Product Hs Code,Product Discountable,Product Is Giftcard,Product Collection Id,Product Type Id,Product Created At,Product Image 1,Product Tag 1,Product Sales Channel 1,Variant Id,Variant Title,Variant Sku,Variant Allow Backorder,Variant Manage Inventory,Variant Created At,Variant Product Id,Variant Price EUR,Variant Price USD,Variant Option 1 Name,Variant Option 1 Value',
  'prod_01MEDUSA,t-shirt,Medusa T-Shirt,,Reimagine the feeling of a classic T-shirt.,published,https://example.com/tee.png,400,6109,true,false,pcol_foreign,ptyp_foreign,2024-10-01T00:00:00.000Z,https://example.com/tee.png,summer,sc_01FOREIGN,variant_01A,S,SHIRT-S,false,true,2024-10-01T00:00:00.000Z,prod_01MEDUSA,10,15.5,Size,S',
  'prod_01MEDUSA,t-shirt,Medusa T-Shirt,,Reimagine the feeling of a classic T-shirt.,published,https://example.com/tee.png,400,6109,true,false,pcol_foreign,ptyp_foreign,2024-10-01T00:00:00.000Z,https://example.com/tee.png,summer,sc_01FOREIGN,variant_01B,M,SHIRT-M,false,true,2024-10-01T00:00:00.000Z,prod_01MEDUSA,10,15.5,Size,M',
  'prod_01MUG,coffee-mug,Coffee Mug,,Every programmer’s best friend.,draft,,,,true,false,,,2024-10-01T00:00:00.000Z,,,,variant_01C,One Size,MUG-1,false,true,2024-10-01T00:00:00.000Z,prod_01MUG,8,9,Size,One Size',
].join('\n');

describe('product import', () => {
  it("imports Medusa's own export through the SDK: preview, confirm, job, catalog", async () => {
    const preview = await sdk.admin.product.import({ file: csvFile(MEDUSA_EXPORT) });
    expect(preview.summary).toMatchObject({ toCreate: 2, toUpdate: 0 });
    const summary = preview.summary as unknown as Record<string, unknown>;
    expect(summary.errors).toEqual([]);
    // Foreign ids (another shop's collection, type, channel) are reported, not fatal.
    expect((summary.warnings as { column: string }[]).map((w) => w.column)).toEqual(
      expect.arrayContaining(['Product Id', 'Product Collection Id', 'Product Type Id', 'Product Sales Channel']),
    );
    expect(await countProducts()).toBe(0); // a preview writes nothing of the catalog
    expect((await job(preview.transaction_id)).status).toBe('awaiting_confirmation');

    await sdk.admin.product.confirmImport(preview.transaction_id);
    expect((await job(preview.transaction_id)).status).toBe('pending');
    await t.workers.jobs.drain();
    const done = await job(preview.transaction_id);
    expect(done).toMatchObject({ status: 'succeeded', progress: { done: 3, total: 3 } });
    expect(done.result).toMatchObject({ created: 2, updated: 0, rows: 3 });

    const tee = await productByHandle('t-shirt');
    expect(tee).toMatchObject({ title: 'Medusa T-Shirt', status: 'published', weight: 400, hs_code: '6109' });
    expect(tee.tags.map((x: { value: string }) => x.value)).toEqual(['summer']);
    expect(tee.options.map((o: { title: string }) => o.title)).toEqual(['Size']);
    const s = tee.variants.find((v: { sku: string }) => v.sku === 'SHIRT-S');
    // Amounts in the file are whole units (Medusa's): 15.5 USD is 1550 cents here.
    expect(
      Object.fromEntries(s.prices.map((p: { currency_code: string; amount: number }) => [p.currency_code, p.amount])),
    ).toEqual({
      eur: 1000,
      usd: 1550,
    });

    // Importing the same file again updates instead of duplicating.
    const again = await sdk.admin.product.import({ file: csvFile(MEDUSA_EXPORT) });
    expect(again.summary).toMatchObject({ toCreate: 0, toUpdate: 2 });
  });

  it('a file with bad rows gets the row report, and nothing of those rows is written', async () => {
    const file = [
      'Product Handle;Product Title;Product Status;Variant Sku;Variant Price EUR;Variant Option 1 Name;Variant Option 1 Value',
      'good-lamp;Good Lamp;published;LAMP-1;20;Colour;Red',
      'good-lamp;Good Lamp;published;LAMP-2;20;Colour;Blue',
      'bad-chair;Bad Chair;published;CHAIR-1;twelve;Colour;Red', // bad price
      'bad-chair;Bad Chair;published;CHAIR-2;12;Colour;Blue', // its product is left out whole
      'odd-status;Odd Status;sold;ODD-1;5;Size;M', // bad status
      'dup-sku;Dup Sku;draft;LAMP-1;5;Size;M', // SKU taken by row 2
    ].join('\n');
    const res = await t.inject({
      method: 'POST',
      url: '/admin/products/import',
      headers: { authorization: `Bearer ${t.adminToken}`, 'content-type': 'multipart/form-data; boundary=XX' },
      payload: `--XX\r\nContent-Disposition: form-data; name="file"; filename="bad.csv"\r\nContent-Type: text/csv\r\n\r\n${file}\r\n--XX--\r\n`,
    });
    expect(res.statusCode, res.body).toBe(202);
    const { transaction_id, summary } = res.json();
    expect(summary).toMatchObject({ toCreate: 1, toUpdate: 0, rows: 6, rows_with_errors: 4 });
    expect(summary.errors).toEqual(
      expect.arrayContaining([
        { row: 4, column: 'Variant Price EUR', reason: '"twelve" is not an amount of 0 or more' },
        expect.objectContaining({ row: 5, reason: expect.stringContaining('another row of product bad-chair') }),
        { row: 6, column: 'Product Status', reason: '"sold" is not one of draft, proposed, published, rejected' },
        { row: 7, column: 'Variant Sku', reason: 'SKU LAMP-1 is also on row 2' },
      ]),
    );
    await t.admin('POST', `/admin/products/import/${transaction_id}/confirm`);
    await t.workers.jobs.drain();
    const done = await job(transaction_id);
    expect(done.status).toBe('succeeded');
    expect(done.files.map((f: { kind: string }) => f.kind)).toContain('errors');
    const report = readCsv(await download(transaction_id, 'errors'));
    expect(report.headers).toEqual(['Row', 'Column', 'Reason']);
    expect(report.records.map((r) => r[0])).toEqual(['4', '5', '6', '7']);

    expect((await productByHandle('good-lamp')).variants).toHaveLength(2);
    for (const handle of ['bad-chair', 'odd-status', 'dup-sku']) expect(await productByHandle(handle)).toBeUndefined();
    const [skus] = await rows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from product_variants where sku in ('CHAIR-1', 'CHAIR-2', 'ODD-1')`,
    );
    expect(skus.n).toBe(0);
  });

  it('refuses what is not an import: no file, not CSV, a second confirm, another role', async () => {
    const none = await t.admin('POST', '/admin/products/import', {});
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({ type: 'invalid_data', code: 'import_file_required' });
    const unknown = await t.admin('POST', '/admin/products/import/job_nope/confirm');
    expect(unknown.statusCode).toBe(404);
    const preview = await sdk.admin.product.import({ file: csvFile('Product Handle,Product Title\nx-thing,X Thing') });
    await sdk.admin.product.confirmImport(preview.transaction_id);
    const twice = await t.admin('POST', `/admin/products/import/${preview.transaction_id}/confirm`);
    expect(twice.statusCode).toBe(400);
    expect(twice.json().code).toBe('import_not_awaiting');
    // A viewer may read jobs but not import.
    const jobsBefore = await rows<{ n: number }>(t.database.db, sql`select count(*)::int as n from jobs`);
    const viewer = await t.admin('POST', `/admin/products/imports/${preview.transaction_id}/confirm`, undefined, {
      token: t.viewerToken,
    });
    expect(viewer.statusCode).toBe(403);
    expect(await rows(t.database.db, sql`select count(*)::int as n from jobs`)).toEqual(jobsBefore);
    expect((await t.admin('GET', '/admin/jobs', undefined, { token: t.viewerToken })).statusCode).toBe(200);
  });

  it('a job whose instance died (lease ran out) is taken over and finished', async () => {
    const preview = await sdk.admin.product.import({
      file: csvFile('Product Handle,Product Title\ntaken-over,Taken Over'),
    });
    await sdk.admin.product.confirmImport(preview.transaction_id);
    await t.database.db.execute(
      sql`update jobs set status = 'running', lease_owner = 'dead-instance', attempts = 1,
          lease_until = ${new Date(t.clock.now().getTime() - 1000).toISOString()}::timestamptz
          where id = ${preview.transaction_id}`,
    );
    await t.workers.jobs.drain();
    expect(await job(preview.transaction_id)).toMatchObject({ status: 'succeeded', attempts: 2 });
    expect(await productByHandle('taken-over')).toBeDefined();
  });
});

describe('export', () => {
  it('our export imports back into an empty shop and gives the same catalog', async () => {
    const coll = (await t.admin('POST', '/admin/collections', { title: 'Summer', handle: 'summer-coll' })).json()
      .collection;
    const type = (await t.admin('POST', '/admin/product-types', { value: 'Apparel' })).json().product_type;
    const tag = (await t.admin('POST', '/admin/product-tags', { value: 'cotton' })).json().product_tag;
    const channel = (await t.admin('GET', '/admin/sales-channels')).json().sales_channels[0].id;
    for (const [handle, sizes] of [
      ['round-shirt', ['S', 'M', 'L']],
      ['round-cap', ['One size']],
    ] as const) {
      const res = await t.admin('POST', '/admin/products', {
        title: `Round ${handle}`,
        subtitle: '=1+1 @home', // a formula to a spreadsheet: written with its text mark, read back without
        handle,
        status: 'published',
        description: 'Line one, "quoted"\nline two; with a semicolon',
        collection_id: coll.id,
        type_id: type.id,
        tags: [{ id: tag.id }],
        sales_channels: [{ id: channel }],
        images: [{ url: `https://example.com/${handle}.png` }],
        weight: 250,
        options: [{ title: 'Size', values: [...sizes] }],
        variants: sizes.map((size, i) => ({
          title: size,
          sku: `${handle}-${size}`,
          options: { Size: size },
          manage_inventory: i % 2 === 0,
          prices: [
            { currency_code: 'eur', amount: 1999 + i },
            { currency_code: 'jpy', amount: 2500 },
          ],
        })),
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    const { transaction_id } = await sdk.admin.product.export({}, { handle: ['round-shirt', 'round-cap'] } as never);
    await t.workers.jobs.drain();
    const exported = await job(transaction_id);
    expect(exported).toMatchObject({ status: 'succeeded', progress: { done: 2, total: 2 } });
    const csv = await download(transaction_id, 'result');
    const { headers, records } = readCsv(csv);
    expect(headers.slice(0, 3)).toEqual(['Product Id', 'Product Handle', 'Product Title']);
    expect(headers).toEqual(expect.arrayContaining(['Variant Sku', 'Variant Price EUR', 'Variant Option 1 Name']));
    expect(records).toHaveLength(4);
    expect(records[0]).toContain("'=1+1 @home");

    const shape = async () => {
      const res = await t.admin('GET', '/admin/products?handle[]=round-shirt&handle[]=round-cap&order=handle');
      return res
        .json()
        .products.map((p: Json) => ({
          handle: p.handle,
          title: p.title,
          subtitle: p.subtitle,
          status: p.status,
          description: p.description,
          weight: p.weight,
          collection: p.collection?.handle,
          type: p.type?.value,
          tags: p.tags.map((x: { value: string }) => x.value),
          channels: p.sales_channels.map((c: { name: string }) => c.name),
          images: p.images.map((i: { url: string }) => i.url),
          options: p.options.map((o: { title: string; values: { value: string }[] }) => [
            o.title,
            o.values.map((v) => v.value).sort(),
          ]),
          variants: p.variants
            .map((v: Json) => ({
              title: v.title,
              sku: v.sku,
              manage_inventory: v.manage_inventory,
              options: v.options.map((o: { value: string }) => o.value),
              prices: v.prices
                .map((x: { currency_code: string; amount: number }) => `${x.currency_code}:${x.amount}`)
                .sort(),
            }))
            .sort((a: { sku: string }, b: { sku: string }) => a.sku.localeCompare(b.sku)),
        }))
        .sort((a: { handle: string }, b: { handle: string }) => a.handle.localeCompare(b.handle));
    };
    const before = await shape();
    expect(before).toHaveLength(2);

    // An empty shop: the same worker's database, emptied.
    await t.close();
    t = await startTestApp();
    ({ dashboard: sdk } = await medusaSdks(t));
    expect(await countProducts()).toBe(0);
    const preview = await sdk.admin.product.import({ file: csvFile(csv, 'export.csv') });
    expect(preview.summary).toMatchObject({ toCreate: 2, toUpdate: 0, errors: [] });
    await sdk.admin.product.confirmImport(preview.transaction_id);
    await t.workers.jobs.drain();
    expect((await job(preview.transaction_id)).status).toBe('succeeded');
    expect(await shape()).toEqual(before);
  });

  it('orders and customers export to CSV the same way', async () => {
    await makeRegion(t);
    const { order } = await placeOrder(t, { email: 'accountant-check@example.com' });
    await t.admin('POST', '/admin/customers', {
      email: 'csv-customer@example.com',
      first_name: 'Cee',
      last_name: '=HYPERLINK("http://evil.test")',
    });
    const orders = await t.admin('POST', '/admin/orders/export', {});
    expect(orders.statusCode, orders.body).toBe(202);
    const customers = await t.admin('POST', '/admin/customers/export?q=csv-customer', {});
    expect(customers.statusCode, customers.body).toBe(202);
    await t.workers.jobs.drain();
    const o = readCsv(await download(orders.json().transaction_id, 'result'));
    expect(o.headers).toEqual(
      expect.arrayContaining(['Order Id', 'Order Email', 'Order Total', 'Order Currency Code']),
    );
    const row = Object.fromEntries(o.headers.map((h, i) => [h, o.records.find((r) => r[0] === order.id)?.[i]]));
    expect(row['Order Email']).toBe('accountant-check@example.com');
    const c = readCsv(await download(customers.json().transaction_id, 'result'));
    expect(c.records).toHaveLength(1);
    // A shopper's name a spreadsheet would run as a formula stays text.
    expect(c.records[0]).toEqual(
      expect.arrayContaining(['csv-customer@example.com', 'Cee', `'=HYPERLINK("http://evil.test")`]),
    );

    const list = await t.admin('GET', '/admin/jobs?type=order_export');
    expect(list.json()).toMatchObject({ count: 1, jobs: [{ type: 'order_export', status: 'succeeded' }] });
    expect(list.json().jobs[0].files[0]).toMatchObject({
      kind: 'result',
      url: expect.stringMatching(/^\/admin\/jobs\/job_/),
    });
    expect((await t.admin('GET', '/admin/jobs/job_nope')).statusCode).toBe(404);
  });
});

describe('inventory export', () => {
  it('Medusa’s sdk.admin.inventoryItem.export: a row per variant selling an item, levels per location', async () => {
    const { variant } = await makeProduct(t, { stock: 7 });
    const aisle = `Aisle ${uniq()}`;
    const location = (await sdk.admin.stockLocation.create({ name: aisle })).stock_location.id;
    const loose = `LOOSE-${uniq()}`;
    await sdk.admin.inventoryItem.create({
      sku: loose,
      title: 'Spare strap',
      requires_shipping: false,
      location_levels: [{ location_id: location, stocked_quantity: 5 }],
    } as never);

    const { transaction_id } = await sdk.admin.inventoryItem.export({}, { sku: [variant.sku, loose] } as never);
    await t.workers.jobs.drain();
    expect(await job(transaction_id)).toMatchObject({
      type: 'inventory_item_export',
      status: 'succeeded',
      progress: { done: 2, total: 2 },
    });
    const csv = readCsv(await download(transaction_id, 'result'));
    expect(csv.headers).toEqual(
      expect.arrayContaining([
        'Item Id',
        'Item Sku',
        'Variant Id',
        'Variant Barcode',
        `Location [${aisle}] Stocked Quantity`,
        `Location [${aisle}] Available Quantity`,
      ]),
    );
    const bySku = new Map(
      csv.records.map((r) => {
        const row = Object.fromEntries(csv.headers.map((h, i) => [h, r[i]]));
        return [row['Item Sku'], row];
      }),
    );
    expect(bySku.get(loose)).toMatchObject({
      'Item Title': 'Spare strap',
      'Item Requires Shipping': 'FALSE',
      'Variant Id': '',
      [`Location [${aisle}] Stocked Quantity`]: '5',
      [`Location [${aisle}] Reserved Quantity`]: '0',
    });
    expect(bySku.get(variant.sku)).toMatchObject({
      'Variant Id': variant.id,
      'Variant Title': variant.title,
      'Item Stocked Quantity': '7',
      // No level at that location: an empty cell, not a zero.
      [`Location [${aisle}] Stocked Quantity`]: '',
    });
  });
});

describe('export filters', () => {
  it('a bad filter is refused at once with a 400, and no job is made', async () => {
    const before = await rows<{ n: number }>(t.database.db, sql`select count(*)::int as n from jobs`);
    const bad = await t.admin('POST', '/admin/orders/export?created_at[gte]=yesterday-ish', {});
    expect(bad.statusCode, bad.body).toBe(400);
    const sort = await t.admin('POST', '/admin/orders/export?order=nonsense', {});
    expect(sort.statusCode, sort.body).toBe(400);
    expect(await rows(t.database.db, sql`select count(*)::int as n from jobs`)).toEqual(before);
  });
});

describe("a file from Medusa's own export", () => {
  it('the file a stock Medusa 2.21 wrote (POST /admin/products/export) imports here unchanged', async () => {
    // Downloaded from the Medusa peer's export of a two-variant product (fixtures/, not edited).
    const text = readFileSync(path.join(import.meta.dirname, 'fixtures', 'medusa-2.21-product-export.csv'), 'utf8');
    const preview = await sdk.admin.product.import({ file: csvFile(text, 'medusa.csv') });
    const summary = preview.summary as unknown as Record<string, unknown>;
    expect(summary).toMatchObject({ toCreate: 1, toUpdate: 0, rows: 2, errors: [], ignored_columns: [] });
    await sdk.admin.product.confirmImport(preview.transaction_id);
    await t.workers.jobs.drain();
    expect((await job(preview.transaction_id)).status).toBe('succeeded');
    const handle = readCsv(text).records[0][1];
    const product = await productByHandle(handle);
    expect(product).toMatchObject({ title: 'Jobs Peer Tee', status: 'published', discountable: true });
    expect(
      product.variants.map((v: { title: string; prices: { currency_code: string; amount: number }[] }) => [
        v.title,
        v.prices.map((p) => `${p.currency_code}:${p.amount}`),
      ]),
    ).toEqual([
      ['S', ['eur:1050']],
      ['M', ['eur:1200']],
    ]);
  });
});

describe('resuming', () => {
  it('an import stopped after a batch resumes where its progress committed, writing no product twice', async () => {
    const lines = [
      'Product Handle,Product Title,Variant Sku,Variant Price EUR,Variant Option 1 Name,Variant Option 1 Value',
    ];
    for (let i = 0; i < 300; i++)
      for (const size of ['S', 'M']) lines.push(`resume-${i},Resume ${i},RS-${i}-${size},5,Size,${size}`);
    const preview = await sdk.admin.product.import({ file: csvFile(lines.join('\n')) });
    await sdk.admin.product.confirmImport(preview.transaction_id);
    // The first runner is stopped (a deploy) the moment its first batch's progress is written.
    let stopping: Promise<void> | undefined;
    const first: JobRunner = new JobRunner({ database: t.database, clock: t.clock, log: t.app.log, owner: 'first' });
    first.register({
      type: productImportJob.type,
      run: (ctx) =>
        productImportJob.run({
          ...ctx,
          progress: async (tx, done, total) => {
            await ctx.progress(tx, done, total);
            stopping ??= first.stop();
          },
        }),
    });
    await first.drain();
    await stopping;
    const handedBack = await job(preview.transaction_id);
    expect(handedBack.status).toBe('pending');
    const doneBefore = handedBack.progress.done;
    expect(doneBefore).toBeGreaterThan(0);
    expect(doneBefore).toBeLessThan(600);

    await t.workers.jobs.drain();
    const done = await job(preview.transaction_id);
    expect(done).toMatchObject({ status: 'succeeded', progress: { done: 600, total: 600 } });
    // The second run created only what the first had not: the committed rows were skipped.
    expect(done.result.created).toBe(300 - doneBefore / 2);
    expect(done.result.updated).toBe(0); // not rewritten as updates either
    const [n] = await rows<{ products: number; variants: number }>(
      t.database.db,
      sql`select (select count(*)::int from products where handle like 'resume-%' and deleted_at is null) as products,
                 (select count(*)::int from product_variants where sku like 'RS-%' and deleted_at is null) as variants`,
    );
    expect(n).toEqual({ products: 300, variants: 600 });
  }, 180_000);
});
