import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { adminToken, eventually, freshDatabase, startServer, stopServer, type ServerProcess } from '../processes.ts';

/**
 * A product import is a background job that survives its instance: two shops on one PostgreSQL,
 * the one that claimed the import is killed with SIGKILL mid-run, and the other takes the job
 * over once its lease ran out and finishes it from the committed progress, every product once.
 */
let A: ServerProcess;
let B: ServerProcess;
let work: string;
let db: pg.Client;
let token: string;

// Many batches: the import writes a batch of new products in a few statements, so a short file
// could finish before the kill lands.
const ROWS = 6000;
const env = (url: string, n: string) => ({ DATABASE_URL: url, DATA_DIR: path.join(work, n), JOB_LEASE_MS: '3000' });

beforeAll(async () => {
  const base = process.env.MULTI_DATABASE_URL ?? process.env.DATABASE_URL;
  if (!base) throw new Error('the multi-instance tier needs PostgreSQL: set DATABASE_URL');
  const url = await freshDatabase(base, `${new URL(base).pathname.slice(1) || 'emporium'}_multi_import`);
  work = mkdtempSync(path.join(tmpdir(), 'emporium-import-'));
  A = await startServer('shop-A', env(url, 'A'));
  B = await startServer('shop-B', env(url, 'B'));
  db = new pg.Client({ connectionString: url });
  await db.connect();
  token = await adminToken(A);
}, 240_000);

afterAll(async () => {
  await db?.end();
  await Promise.all([A, B].filter(Boolean).map((s) => stopServer(s)));
  if (work) rmSync(work, { recursive: true, force: true });
});

function csv(): string {
  const lines = [
    'Product Handle,Product Title,Product Status,Variant Sku,Variant Price EUR,Variant Option 1 Name,Variant Option 1 Value',
  ];
  // Two variants per product: a batch boundary never splits a product.
  for (let i = 0; i < ROWS / 2; i++)
    for (const size of ['S', 'M'])
      lines.push(`takeover-${i},Takeover ${i},published,TK-${i}-${size},${(i % 90) + 10}.5,Size,${size}`);
  return lines.join('\n');
}

const job = async (id: string) =>
  (
    await db.query<{ status: string; lease_owner: string | null; progress_done: number; attempts: number }>(
      'select status, lease_owner, progress_done, attempts from jobs where id = $1',
      [id],
    )
  ).rows[0];

it('the instance running an import is killed with SIGKILL; the other finishes it, every product once', async () => {
  const form = new FormData();
  form.append('file', new File([csv()], 'takeover.csv', { type: 'text/csv' }));
  const preview = await fetch(`${A.url}/admin/products/import`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  expect(preview.status).toBe(202);
  const { transaction_id: id, summary } = await preview.json();
  expect(summary).toMatchObject({ toCreate: ROWS / 2, toUpdate: 0, rows: ROWS, rows_with_errors: 0 });
  expect((await A.call('POST', `/admin/products/import/${id}/confirm`, undefined, { token })).status).toBe(202);

  // Whoever claimed it: wait for its first committed batch, then kill that process outright.
  const claimed = await eventually(
    async () => {
      const j = await job(id);
      return j.lease_owner && j.progress_done > 0 ? j : undefined;
    },
    120_000,
    'a committed batch',
  );
  const running = [A, B].find((s) => claimed?.lease_owner?.includes(`:${s.proc.pid}:`));
  const other = running === A ? B : A;
  expect(running).toBeDefined();
  running!.signal('SIGKILL');
  await running!.exited;

  const done = await eventually(
    async () => {
      const j = await job(id);
      return j.status === 'succeeded' || j.status === 'failed' ? j : undefined;
    },
    180_000,
    'the import to finish on the other instance',
  );
  expect(done).toMatchObject({ status: 'succeeded', progress_done: ROWS, attempts: 2 });
  // Only the survivor could have finished it.
  const finisher = await other.call('GET', `/admin/jobs/${id}`, undefined, { token });
  expect(finisher.body.job).toMatchObject({ status: 'succeeded', progress: { done: ROWS, total: ROWS } });

  const counts = await db.query<{ products: number; handles: number; variants: number }>(
    `select (select count(*)::int from products where deleted_at is null) as products,
            (select count(distinct handle)::int from products where deleted_at is null) as handles,
            (select count(*)::int from product_variants where deleted_at is null) as variants`,
  );
  expect(counts.rows[0]).toEqual({ products: ROWS / 2, handles: ROWS / 2, variants: ROWS });
}, 300_000);
