/**
 * Catalog benchmark: seeds N products (default 10,000; two variants each, EUR prices), starts the
 * real server as a child process, and measures with autocannon:
 *   GET /store/products?limit=20, GET /store/products/{id}, GET /admin/products?limit=20&q=…
 * plus the `q` search latency at one connection, cold start to the first 200, and server RSS.
 *
 *   npm run bench                                   # PGlite in a temp data dir
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench   # PostgreSQL (uses database emporium_bench)
 *   npm run bench -- --products 100000 --duration 10 --connections 10
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pino from 'pino';
import { bootstrap } from '../src/bootstrap.ts';
import { systemClock } from '../src/platform/clock.ts';
import { loadConfig } from '../src/platform/config.ts';
import { openDatabase } from '../src/platform/db/database.ts';
import { freshBenchDatabase, startServer } from './lib.ts';
import { seedProducts } from './seed.ts';

const { values: opts } = parseArgs({
  options: {
    products: { type: 'string', default: '10000' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10' },
    port: { type: 'string', default: '9300' },
  },
});
const N = Number(opts.products);
const DURATION = Number(opts.duration);
const CONNECTIONS = Number(opts.connections);
const PORT = Number(opts.port);
const ADMIN = { email: 'bench@example.com', password: 'bench-password-1' };

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : NaN;
}

async function waitFor200(url: string, headers: Record<string, string>, deadlineMs: number): Promise<number> {
  const start = performance.now();
  for (;;) {
    try {
      const res = await fetch(url, { headers });
      if (res.status === 200) return performance.now() - start;
    } catch {
      // not listening yet
    }
    if (performance.now() - start > deadlineMs) throw new Error(`no 200 from ${url} within ${deadlineMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function run(title: string, url: string, headers: Record<string, string>, connections = CONNECTIONS) {
  const result = await autocannon({ url, headers, connections, duration: DURATION });
  const row = {
    scenario: title,
    connections,
    'req/s': Math.round(result.requests.average),
    'p50 ms': result.latency.p50,
    'p99 ms': result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
  return row;
}

async function main() {
  const databaseUrl = await freshBenchDatabase('emporium_bench');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'emporium-bench-'));
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : { DATABASE_URL: '' }),
  };
  const backend = databaseUrl ? 'postgres' : 'pglite';

  // Seed in this process, then close: the server must be the only opener of a PGlite data dir.
  const config = loadConfig({ ...process.env, ...env });
  const database = await openDatabase({ databaseUrl, dataDir });
  await database.migrate();
  const seedStart = performance.now();
  const report = await bootstrap({ db: database.db, clock: systemClock, log: pino({ level: 'silent' }) }, config);
  const { rows: channels } = (await database.db.execute(
    `select id from sales_channels limit 1` as never,
  )) as unknown as { rows: { id: string }[] };
  await seedProducts(database, N, channels[0].id);
  const seedMs = performance.now() - seedStart;
  await database.close();

  const key = report.publishableKey!;
  const base = `http://127.0.0.1:${PORT}`;
  const storeHeaders = { 'x-publishable-api-key': key };
  let server = startServer(PORT, env);
  try {
    await waitFor200(`${base}/store/products?limit=1`, storeHeaders, 60_000); // first start may migrate
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    // Cold start on an existing data dir: spawn to the first 200 of the store list.
    server = startServer(PORT, env);
    const coldMs = await waitFor200(`${base}/store/products?limit=20`, storeHeaders, 60_000);

    const login = await fetch(`${base}/auth/user/emailpass`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    const { token } = (await login.json()) as { token: string };
    const adminHeaders = { authorization: `Bearer ${token}` };
    const someId = `prod_${String(Math.ceil(N / 2)).padStart(26, '0')}`;

    const results = [];
    results.push(await run('store list ?limit=20', `${base}/store/products?limit=20`, storeHeaders));
    results.push(await run('store product by id', `${base}/store/products/${someId}`, storeHeaders));
    results.push(await run('admin list ?limit=20&q=linen', `${base}/admin/products?limit=20&q=linen`, adminHeaders));
    results.push(
      await run('admin q search (1 conn)', `${base}/admin/products?limit=20&q=velvet%20hat`, adminHeaders, 1),
    );
    const rss = rssMb(server.pid!);

    console.log(`\nEmporium catalog benchmark: ${backend}, ${N} products × 2 variants, ${DURATION}s per scenario`);
    console.log(
      `seed ${Math.round(seedMs)} ms · cold start to first 200: ${Math.round(coldMs)} ms · server RSS after runs: ${rss} MB\n`,
    );
    console.table(results);
  } finally {
    server.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
