import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { statementsOf } from '../../../test/statements.ts';
import { rows } from '../../platform/db/database.ts';

/**
 * An import that updates products already in the shop: every batch's updates go through
 * updateProductsIn (products/bulk-update.ts), a fixed number of statements per batch, with the rows,
 * stock, events and store documents one product at a time would give.
 */
let t: TestApp;
/** The default sales channel, which the test's publishable key reads. */
let channel: string;
beforeAll(async () => {
  t = await startTestApp();
  channel = (await t.admin('GET', '/admin/sales-channels')).json().sales_channels[0].id;
}, 300_000);
afterAll(() => t.close());

/** Upload (preview), confirm, run: through inject, so a loaded machine's sockets play no part. */
async function importFile(text: string): Promise<string> {
  const preview = await t.inject({
    method: 'POST',
    url: '/admin/products/import',
    headers: { authorization: `Bearer ${t.adminToken}`, 'content-type': 'multipart/form-data; boundary=XX' },
    payload: `--XX\r\nContent-Disposition: form-data; name="file"; filename="products.csv"\r\nContent-Type: text/csv\r\n\r\n${text}\r\n--XX--\r\n`,
  });
  expect(preview.statusCode, preview.body).toBe(202);
  const id = preview.json().transaction_id as string;
  const confirmed = await t.admin('POST', `/admin/products/import/${id}/confirm`);
  expect(confirmed.statusCode, confirmed.body).toBe(202);
  await t.workers.jobs.drain();
  return id;
}

async function job(id: string) {
  const res = await t.admin('GET', `/admin/jobs/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().job;
}

const HEADER =
  'Product Handle,Product Title,Product Status,Variant Sku,Variant Manage Inventory,Variant Inventory Quantity,Variant Price EUR,Variant Price USD,Variant Option 1 Name,Variant Option 1 Value';

/** One small variant per product (EUR only) in the default channel, as the shop had them before the update. */
function catalog(prefix: string, n: number): string {
  const lines = [`${HEADER},Product Sales Channel 1`];
  for (let i = 0; i < n; i++)
    lines.push(`${prefix}-${i},Old ${i},published,${prefix.toUpperCase()}-${i}-S,TRUE,2,10,,Size,S,${channel}`);
  return lines.join('\n');
}

/** The update: a new title, the small variant repriced (EUR changed, USD added), a medium variant added. */
function update(prefix: string, n: number): string {
  const lines = [HEADER];
  for (let i = 0; i < n; i++) {
    const sku = `${prefix.toUpperCase()}-${i}`;
    lines.push(`${prefix}-${i},Renamed ${i},published,${sku}-S,TRUE,2,${20 + (i % 5)}.5,12,Size,S`);
    lines.push(`${prefix}-${i},Renamed ${i},published,${sku}-M,TRUE,3,30,,Size,M`);
  }
  return lines.join('\n');
}

type VariantState = { handle: string; title: string; variant_id: string; sku: string; option_id: string };

async function variantsOf(prefix: string) {
  return rows<VariantState & { eur: number | null; eur_id: string | null; usd: number | null; stocked: number | null }>(
    t.database.db,
    sql`select p.handle, p.title, v.id as variant_id, v.sku,
        (select o.id from product_options o where o.product_id = p.id and o.title = 'Size') as option_id,
        (select amount::int from prices x where x.variant_id = v.id and x.currency_code = 'eur' and x.min_quantity is null) as eur,
        (select id from prices x where x.variant_id = v.id and x.currency_code = 'eur' and x.min_quantity is null) as eur_id,
        (select amount::int from prices x where x.variant_id = v.id and x.currency_code = 'usd' and x.min_quantity is null) as usd,
        (select l.stocked_quantity::int from product_variant_inventory_items k
          join inventory_levels l on l.inventory_item_id = k.inventory_item_id where k.variant_id = v.id) as stocked
      from products p join product_variants v on v.product_id = p.id and v.deleted_at is null
      where p.handle like ${`${prefix}-%`} and p.deleted_at is null order by v.sku`,
  );
}

describe('import of updates', () => {
  it('updates 1,200 existing products in batches: titles, prices, variants changed and added', async () => {
    const N = 1200;
    const created = await importFile(catalog('upd', N));
    expect(await job(created)).toMatchObject({ status: 'succeeded', result: { created: N, updated: 0 } });
    const before = new Map((await variantsOf('upd')).map((v) => [v.sku, v]));
    expect(before.size).toBe(N);

    const id = await importFile(update('upd', N));
    expect(await job(id)).toMatchObject({
      status: 'succeeded',
      progress: { done: 2 * N, total: 2 * N },
      result: { created: 0, updated: N, rows: 2 * N, rows_with_errors: 0 },
    });

    const after = await variantsOf('upd');
    expect(after).toHaveLength(2 * N);
    for (let i = 0; i < N; i++) {
      const small = after.find((v) => v.sku === `UPD-${i}-S`)!;
      const medium = after.find((v) => v.sku === `UPD-${i}-M`)!;
      const old = before.get(`UPD-${i}-S`)!;
      expect(small).toMatchObject({
        handle: `upd-${i}`,
        title: `Renamed ${i}`,
        // The same variant, option and price rows, changed in place.
        variant_id: old.variant_id,
        option_id: old.option_id,
        eur: (20 + (i % 5)) * 100 + 50,
        eur_id: old.eur_id,
        usd: 1200,
        stocked: 2,
      });
      expect(medium).toMatchObject({ handle: `upd-${i}`, option_id: old.option_id, eur: 3000, usd: null, stocked: 3 });
    }

    // One product.updated per product, with the admin JSON after the update.
    const events = await rows<{ payload: { handle: string; title: string; variants: { sku: string }[] } }>(
      t.database.db,
      sql`select payload from outbox where name = 'product.updated' and payload->>'handle' like 'upd-%'`,
    );
    expect(events).toHaveLength(N);
    const e17 = events.find((e) => e.payload.handle === 'upd-17')!.payload;
    expect(e17.title).toBe('Renamed 17');
    expect(e17.variants.map((v) => v.sku).sort()).toEqual(['UPD-17-M', 'UPD-17-S']);

    // The store shows the new titles and variants (documents rebuilt per batch).
    for (const handle of ['upd-0', 'upd-777', `upd-${N - 1}`]) {
      const store = await t.inject({
        method: 'GET',
        url: `/store/products?handle=${handle}`,
        headers: { 'x-publishable-api-key': t.publishableKey },
      });
      expect(store.statusCode, store.body).toBe(200);
      const [product] = store.json().products;
      expect(product.title).toBe(`Renamed ${handle.slice(4)}`);
      expect(product.variants.map((v: { sku: string }) => v.sku).sort()).toEqual([
        `UPD-${handle.slice(4)}-M`,
        `UPD-${handle.slice(4)}-S`,
      ]);
    }
    // One audit entry for the import's outcome, with its counts.
    const audit = await t.admin('GET', `/admin/audit-log?resource_id=${id}`);
    const outcome = audit.json().audit_entries.find((e: { method: string }) => e.method === 'JOB');
    expect(outcome).toMatchObject({ action: 'import', changes: { rows: 2 * N, created: 0, updated: N, failed: 0 } });
  }, 600_000);

  it("a batch's statements do not grow with its rows", async () => {
    // Both files fit one batch (IMPORT_BATCH_ROWS); each run after the first updates the same rows again.
    await importFile(catalog('few', 10));
    await importFile(catalog('many', 200));
    const few = await statementsOf(t.database, () => importFile(update('few', 10)));
    const many = await statementsOf(t.database, () => importFile(update('many', 200)));
    expect(await job(few.result)).toMatchObject({ status: 'succeeded', result: { updated: 10 } });
    expect(await job(many.result)).toMatchObject({ status: 'succeeded', result: { updated: 200 } });
    // PGlite: exactly as many. PostgreSQL: the catalog's read lease is renewed by a statement every
    // 300 ms (products/catalog-leases.ts), so a longer run counts a few more of those; one product
    // at a time would add some twenty statements per product, thousands here.
    if (t.database.kind === 'postgres') expect(many.statements).toBeLessThan(few.statements + 40);
    else expect(many.statements).toBe(few.statements);
    expect(few.statements).toBeLessThan(150);
  }, 300_000);
});
