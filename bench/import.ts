/**
 * Product import benchmark: starts the real server (`npm start`, the compiled dist/) on an empty
 * database, generates a CSV in Medusa's columns (products of 1–4 variants, two currencies, tags,
 * a collection and a type), uploads it through `POST /admin/products/import`, confirms it and polls
 * `GET /admin/jobs/{id}` until the job ends. Prints the preview's and the job's time and rows/s,
 * then checks that every product and variant is there.
 *
 *   npm run bench:import                                        # 50,000 rows, PGlite in a temp dir
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:import   # database emporium_bench_import
 *   npm run bench:import -- --rows 2000
 *   npm run bench:import -- --update     # then the same products again, changed: an import of updates
 *
 * With `--update` the catalog is imported first, then a second file of the same rows with new
 * titles and prices is imported over it (every product an update, every variant matched by SKU),
 * and that second import is the one timed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  ADMIN,
  call as callAt,
  closeAgent,
  expectOk,
  freshBenchDatabase,
  loadAverage,
  startServer,
  waitFor200,
} from './lib.ts';

const { values: opts } = parseArgs({
  options: {
    rows: { type: 'string', default: '50000' },
    port: { type: 'string', default: '9302' },
    update: { type: 'boolean', default: false },
  },
});
const ROWS = Number(opts.rows);
const PORT = Number(opts.port);
const BASE = `http://127.0.0.1:${PORT}`;

/**
 * Rows of products with 1 to 4 size variants, until `rows` rows; returns the CSV and its counts.
 * `revision` > 0 gives the same products and SKUs with other titles and prices (an update's file).
 */
export function generateCsv(rows: number, revision = 0): { csv: string; products: number; variants: number } {
  const header = [
    'Product Handle',
    'Product Title',
    'Product Description',
    'Product Status',
    'Product Collection Handle',
    'Product Collection Title',
    'Product Type',
    'Product Tag 1',
    'Product Image 1',
    'Variant Sku',
    'Variant Manage Inventory',
    'Variant Inventory Quantity',
    'Variant Price EUR',
    'Variant Price USD',
    'Variant Option 1 Name',
    'Variant Option 1 Value',
  ];
  const sizes = ['S', 'M', 'L', 'XL'];
  const lines = [header.join(',')];
  let products = 0;
  while (lines.length - 1 < rows) {
    const n = products++;
    const count = Math.min(1 + (n % 4), rows - (lines.length - 1));
    for (let v = 0; v < count; v++) {
      lines.push(
        [
          `bench-${n}`,
          revision ? `Bench product ${n} (revision ${revision})` : `Bench product ${n}`,
          `"A sturdy thing, number ${n}; made to last"`,
          'published',
          `bench-collection-${n % 20}`,
          `Bench collection ${n % 20}`,
          `bench-type-${n % 5}`,
          `tag-${n % 50}`,
          `https://example.com/images/${n}.png`,
          `BENCH-${n}-${sizes[v]}`,
          'TRUE',
          String(100 + (n % 50)),
          `${10 + revision + (n % 90)}.99`,
          `${12 + (n % 90)}.5`,
          'Size',
          sizes[v],
        ].join(','),
      );
    }
  }
  return { csv: lines.join('\n'), products, variants: rows };
}

async function upload(
  token: string,
  csv: string,
): Promise<{ transaction_id: string; summary: Record<string, number> }> {
  const form = new FormData();
  form.append('file', new File([csv], 'bench.csv', { type: 'text/csv' }));
  const res = await fetch(`${BASE}/admin/products/import`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  if (res.status !== 202) throw new Error(`import answered ${res.status}: ${await res.text()}`);
  return res.json();
}

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'emporium-bench-import-'));
  const databaseUrl = await freshBenchDatabase('emporium_bench_import');
  const server = startServer(PORT, {
    DATA_DIR: dataDir,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    DATABASE_URL: databaseUrl ?? '',
  });
  try {
    await waitFor200(`${BASE}/health`, performance.now(), { server });
    const { token } = await expectOk(callAt(BASE, 'POST', '/auth/user/emailpass', {}, ADMIN));
    const admin = { authorization: `Bearer ${token}` };
    const { csv, products, variants } = generateCsv(ROWS);

    /** Uploads a file, checks its preview, confirms it and waits for the job: the two times. */
    const run = async (file: string, expected: { toCreate: number; toUpdate: number }) => {
      const t0 = performance.now();
      const { transaction_id, summary } = await upload(token, file);
      const previewMs = performance.now() - t0;
      if (summary.toCreate !== expected.toCreate || summary.toUpdate !== expected.toUpdate || summary.rows_with_errors)
        throw new Error(`preview: ${JSON.stringify(summary).slice(0, 500)}`);
      const t1 = performance.now();
      const confirmed = await callAt(BASE, 'POST', `/admin/products/import/${transaction_id}/confirm`, admin);
      if (confirmed.status !== 202) throw new Error(`confirm answered ${confirmed.status}`);
      let job: Record<string, unknown> = {};
      for (;;) {
        job = (await expectOk(callAt(BASE, 'GET', `/admin/jobs/${transaction_id}`, admin))).job;
        if (job.status === 'succeeded' || job.status === 'failed') break;
        await new Promise((r) => setTimeout(r, 250));
      }
      const jobMs = performance.now() - t1;
      if (job.status !== 'succeeded') throw new Error(`job ${job.status}: ${job.error}`);
      return { previewMs, jobMs };
    };
    const created = await run(csv, { toCreate: products, toUpdate: 0 });
    const { previewMs, jobMs } = opts.update
      ? await run(generateCsv(ROWS, 1).csv, { toCreate: 0, toUpdate: products })
      : created;

    const listed = await expectOk(
      callAt(BASE, 'GET', `/admin/products?limit=1&q=${opts.update ? 'revision' : 'Bench'}`, admin),
    );
    const ok = listed.count === products;
    console.log(
      `\nEmporium import benchmark: ${databaseUrl ? 'postgres' : 'pglite'}, ${ROWS} rows (${products} products, ${variants} variants)${opts.update ? `, updating them (the creating import took ${(created.jobMs / 1000).toFixed(1)} s)` : ''}, load average ${loadAverage()}`,
    );
    console.table([
      {
        step: 'upload + preview',
        seconds: +(previewMs / 1000).toFixed(2),
        'rows/s': Math.round(ROWS / (previewMs / 1000)),
      },
      { step: 'confirmed job', seconds: +(jobMs / 1000).toFixed(2), 'rows/s': Math.round(ROWS / (jobMs / 1000)) },
      {
        step: 'end to end',
        seconds: +((previewMs + jobMs) / 1000).toFixed(2),
        'rows/s': Math.round(ROWS / ((previewMs + jobMs) / 1000)),
      },
    ]);
    console.log(`products listed after the import: ${listed.count} of ${products} → ${ok ? 'complete' : 'MISMATCH'}`);
    if (!ok) process.exitCode = 1;
  } finally {
    closeAgent();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
