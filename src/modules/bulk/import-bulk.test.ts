import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, testConfig, type TestApp } from '../../../test/app.ts';
import { medusaSdks, type Sdk } from '../../../test/medusa-sdk.ts';
import { rows } from '../../platform/db/database.ts';
import { jobFileRetentionJob } from './file-retention.ts';

/**
 * The import's bulk write path (many products per statement, their events and stock as one at a
 * time would make them), Medusa's newer createImport flow (upload, then import by file key), the
 * audit entry of an import's outcome and the retention of job files.
 */
let t: TestApp;
let sdk: Sdk;
beforeAll(async () => {
  t = await startTestApp();
  ({ dashboard: sdk } = await medusaSdks(t));
});
afterAll(() => t.close());

const DAY = 24 * 60 * 60 * 1000;
const csvFile = (text: string, name = 'products.csv') => new File([text], name, { type: 'text/csv' });

async function job(id: string) {
  const res = await t.admin('GET', `/admin/jobs/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().job;
}

async function importFile(text: string): Promise<string> {
  const preview = await sdk.admin.product.import({ file: csvFile(text) });
  await sdk.admin.product.confirmImport(preview.transaction_id);
  await t.workers.jobs.drain();
  return preview.transaction_id;
}

const HEADER =
  'Product Handle,Product Title,Product Status,Product Tag 1,Variant Sku,Variant Manage Inventory,Variant Inventory Quantity,Variant Price EUR,Variant Option 1 Name,Variant Option 1 Value';

describe('bulk write path', () => {
  it('writes many products per batch with their events, stock and store documents, as one at a time would', async () => {
    // An inventory item that already has a SKU the file gives a variant keeps it (as one at a time).
    const taken = await t.admin('POST', '/admin/inventory-items', { sku: 'BULK-3-S' });
    expect(taken.statusCode, taken.body).toBe(200);
    const channel = (await t.admin('GET', '/admin/sales-channels')).json().sales_channels[0].id;
    const lines = [`${HEADER},Product Sales Channel 1`];
    for (let i = 0; i < 30; i++)
      for (const size of ['S', 'M'])
        lines.push(
          `bulk-${i},Bulk ${i},published,bulk-tag,BULK-${i}-${size},TRUE,${i + 1},${i + 1}.5,Size,${size},${channel}`,
        );
    const id = await importFile(lines.join('\n'));
    expect(await job(id)).toMatchObject({ status: 'succeeded', result: { created: 30, updated: 0 } });

    // One product.created per product, carrying the admin JSON (variants, prices, options, tags).
    const events = await rows<{ payload: Record<string, unknown> }>(
      t.database.db,
      sql`select payload from outbox where name = 'product.created' and payload->>'handle' like 'bulk-%'`,
    );
    expect(events).toHaveLength(30);
    const seven = events.find((e) => (e.payload as { handle: string }).handle === 'bulk-7')!.payload as {
      variants: { sku: string; prices: { currency_code: string; amount: number }[] }[];
      options: { title: string }[];
      tags: { value: string }[];
    };
    expect(seven.variants.map((v) => v.sku).sort()).toEqual(['BULK-7-M', 'BULK-7-S']);
    expect(seven.variants[0].prices).toEqual([expect.objectContaining({ currency_code: 'eur', amount: 850 })]);
    expect(seven.options.map((o) => o.title)).toEqual(['Size']);
    expect(seven.tags.map((x) => x.value)).toEqual(['bulk-tag']);

    // Stock: each managed variant got its inventory item and a level holding the file's quantity.
    const items = await t.admin('GET', '/admin/inventory-items?sku=BULK-7-S');
    expect(items.statusCode, items.body).toBe(200);
    expect(items.json().inventory_items).toEqual([expect.objectContaining({ sku: 'BULK-7-S', stocked_quantity: 8 })]);

    const stock = await rows<{ sku: string; item_sku: string | null; stocked: number; quantity: number }>(
      t.database.db,
      sql`select v.sku, i.sku as item_sku, l.stocked_quantity as stocked, v.inventory_quantity as quantity
          from product_variants v join product_variant_inventory_items k on k.variant_id = v.id
          join inventory_items i on i.id = k.inventory_item_id join inventory_levels l on l.inventory_item_id = i.id
          where v.sku like 'BULK-%' order by v.sku`,
    );
    expect(stock).toHaveLength(60);
    expect(stock.find((r) => r.sku === 'BULK-3-S')).toEqual({
      sku: 'BULK-3-S',
      item_sku: null,
      stocked: 4,
      quantity: 4,
    });
    expect(stock.filter((r) => r.item_sku === r.sku && r.stocked === r.quantity)).toHaveLength(59);

    // The store lists them (documents rebuilt per batch) in the default channel.
    const store = await t.inject({
      method: 'GET',
      url: '/store/products?handle=bulk-12',
      headers: { 'x-publishable-api-key': t.publishableKey },
    });
    expect(store.statusCode, store.body).toBe(200);
    expect(store.json().products.map((p: { handle: string }) => p.handle)).toEqual(['bulk-12']);
  });

  it("files one audit entry for the import's outcome with its counts, none per product", async () => {
    const lines = [HEADER, 'aud-1,Audit 1,draft,,AUD-1,FALSE,,5,Size,S', 'aud-2,Audit 2,draft,,AUD-2,FALSE,,5,Size,S'];
    lines.push('aud-3,Audit 3,sold,,AUD-3,FALSE,,5,Size,S'); // bad status: reported, not imported
    const id = await importFile(lines.join('\n'));
    const jobs = await t.admin('GET', '/admin/audit-log?method=JOB&action=import');
    expect(jobs.json().audit_entries.map((e: { resource_id: string }) => e.resource_id)).toContain(id);
    const res = await t.admin('GET', `/admin/audit-log?resource_id=${id}`);
    expect(res.statusCode, res.body).toBe(200);
    const entries = res.json().audit_entries as { method: string; action: string; changes: Record<string, unknown> }[];
    // The upload and the confirm (the admin's requests) and the outcome (the job, filed under whoever confirmed).
    expect(entries.map((e) => e.method).sort()).toEqual(['JOB', 'POST', 'POST']);
    const outcome = entries.find((e) => e.method === 'JOB')!;
    expect(outcome).toMatchObject({
      action: 'import',
      resource: 'products',
      actor_id: expect.stringMatching(/^user_/),
      changes: { rows: 3, created: 2, updated: 0, failed: 1 },
    });
    const created = (await t.admin('GET', '/admin/products?handle[]=aud-1&handle[]=aud-2')).json().products;
    expect(created).toHaveLength(2);
    for (const p of created) {
      const own = await t.admin('GET', `/admin/audit-log?resource_id=${p.id}`);
      expect(own.json().audit_entries).toEqual([]);
    }
  });
});

describe("Medusa's createImport (upload, then import by file key)", () => {
  it('imports through sdk.admin.product.createImport and confirmImport', async () => {
    const text = [HEADER, 'created-import,Created Import,published,,CI-1,FALSE,,12,Size,M'].join('\n');
    const started = await sdk.admin.product.createImport({ file: csvFile(text, 'catalog.csv') });
    expect(started.transaction_id).toMatch(/^job_/);
    expect((started as unknown as { summary: Record<string, unknown> }).summary).toMatchObject({
      toCreate: 1,
      toUpdate: 0,
    });
    // The uploaded CSV went into the import's job, not into the public file storage.
    const [staged] = await rows<{ n: number }>(t.database.db, sql`select count(*)::int as n from import_uploads`);
    expect(staged.n).toBe(0);
    const [images] = await rows<{ n: number }>(t.database.db, sql`select count(*)::int as n from uploaded_files`);
    expect(images.n).toBe(0);
    await sdk.admin.product.confirmImport(started.transaction_id);
    await t.workers.jobs.drain();
    expect(await job(started.transaction_id)).toMatchObject({ status: 'succeeded', result: { created: 1 } });
    const product = (await t.admin('GET', '/admin/products?handle=created-import')).json().products[0];
    expect(product.variants[0]).toMatchObject({ sku: 'CI-1' });
  });

  it('refuses an unknown file key (404) and a bad mime type, and still refuses a non-image that is not CSV', async () => {
    const unknown = await t.admin('POST', '/admin/products/imports', {
      file_key: 'file_nope',
      originalname: 'x.csv',
      extension: 'csv',
      size: 1,
      mime_type: 'text/csv',
    });
    expect(unknown.statusCode, unknown.body).toBe(404);
    expect(unknown.json()).toMatchObject({ type: 'not_found', code: 'import_upload_not_found' });
    const badType = await t.admin('POST', '/admin/uploads/presigned-urls', {
      originalname: 'x.csv',
      mime_type: 'csv',
      size: 3,
    });
    expect(badType.statusCode, badType.body).toBe(400);
    expect(badType.json().code).toBe('upload_type_invalid');
    const presigned = await t.admin('POST', '/admin/uploads/presigned-urls', {
      originalname: 'x.csv',
      mime_type: 'text/csv',
      size: 3,
    });
    expect(presigned.json()).toMatchObject({ url: '/admin/uploads', extension: 'csv', originalname: 'x.csv' });
    const notCsv = await t.inject({
      method: 'POST',
      url: '/admin/uploads',
      headers: { authorization: `Bearer ${t.adminToken}`, 'content-type': 'multipart/form-data; boundary=XX' },
      payload:
        '--XX\r\nContent-Disposition: form-data; name="files"; filename="notes.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\r\n--XX--\r\n',
    });
    expect(notCsv.statusCode, notCsv.body).toBe(400);
    expect(notCsv.json().code).toBe('file_type_refused');
  });
});

describe('job file retention', () => {
  it('deletes files of jobs ended JOB_FILES_RETENTION_DAYS ago, cancels stale previews, keeps running jobs', async () => {
    expect(testConfig().jobFilesRetentionDays).toBe(7);
    expect(testConfig({ JOB_FILES_RETENTION_DAYS: '0' }).jobFilesRetentionDays).toBe(0);
    expect(jobFileRetentionJob(0)).toBeNull();
    const done = await importFile([HEADER, 'kept-a-week,Kept,draft,,KAW-1,FALSE,,5,Size,S'].join('\n'));
    const stale = await sdk.admin.product.import({
      file: csvFile([HEADER, 'never,Never,draft,,NV-1,FALSE,,5,Size,S'].join('\n')),
    });
    const upload = await t.inject({
      method: 'POST',
      url: '/admin/uploads',
      headers: { authorization: `Bearer ${t.adminToken}`, 'content-type': 'multipart/form-data; boundary=XX' },
      payload: `--XX\r\nContent-Disposition: form-data; name="files"; filename="later.csv"\r\nContent-Type: text/csv\r\n\r\n${HEADER}\r\n--XX--\r\n`,
    });
    expect(upload.statusCode, upload.body).toBe(200);
    // A running job (another instance's) keeps its files however old.
    const running = await sdk.admin.product.import({
      file: csvFile([HEADER, 'run,Run,draft,,RUN-1,FALSE,,5,Size,S'].join('\n')),
    });
    await t.database.db.execute(
      sql`update jobs set status = 'running', lease_owner = 'elsewhere' where id = ${running.transaction_id}`,
    );
    const files = async () =>
      (await rows<{ n: number }>(t.database.db, sql`select count(*)::int as n from job_files`))[0].n +
      (await rows<{ n: number }>(t.database.db, sql`select count(*)::int as n from import_uploads`))[0].n;

    const retention = jobFileRetentionJob(7)!;
    const before = await files();
    expect(await retention.run(t.ctx)).toBe(0);
    expect(await files()).toBe(before);

    const weekLater = new Date(t.clock.now().getTime() + 8 * DAY);
    const deleted = await retention.run({ ...t.ctx, clock: { now: () => weekLater } });
    expect(deleted).toBeGreaterThan(0);
    expect((await job(done)).files).toEqual([]);
    expect(await job(stale.transaction_id)).toMatchObject({ status: 'canceled', files: [] });
    const confirmLate = await t.admin('POST', `/admin/products/import/${stale.transaction_id}/confirm`);
    expect(confirmLate.statusCode).toBe(400);
    expect(confirmLate.json().code).toBe('import_not_awaiting');
    const left = await rows<{ job_id: string }>(t.database.db, sql`select job_id from job_files`);
    expect(new Set(left.map((f) => f.job_id))).toEqual(new Set([running.transaction_id]));
    const [staged] = await rows<{ n: number }>(t.database.db, sql`select count(*)::int as n from import_uploads`);
    expect(staged.n).toBe(0);
  });
});
