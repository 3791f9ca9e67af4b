/**
 * Plugin sandbox benchmark: what running a plugin in its own process costs the shop.
 *   1. route: p50/p99 of a plugin's admin route (served by its process over IPC) against the same
 *      route served in the shop's process (a handler added to the same plugin router), through
 *      the whole HTTP stack (app.inject), interleaved so both see the same machine;
 *   2. event: commit of an `order.placed` → the plugin's handler starts (its own Date.now()).
 * PostgreSQL when DATABASE_URL is set (database emporium_sandbox_bench is recreated), else PGlite.
 *
 *   npm run bench:plugins [-- --requests 3000 --events 200]
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildApp } from '../src/app.ts';
import { bootstrap } from '../src/bootstrap.ts';
import { systemClock } from '../src/platform/clock.ts';
import { loadConfig } from '../src/platform/config.ts';
import { inTx } from '../src/platform/context.ts';
import { openDatabase } from '../src/platform/db/database.ts';
import { emit } from '../src/platform/events/emit.ts';
import { packPackage } from '../src/plugin-package/pack-package.ts';
import { createWorkers } from '../src/workers.ts';
import { freshBenchDatabase } from './lib.ts';

const { values: opts } = parseArgs({
  options: { requests: { type: 'string', default: '3000' }, events: { type: 'string', default: '200' } },
});
const REQUESTS = Number(opts.requests);
const EVENTS = Number(opts.events);
const ID = 'bench-probe';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const r2 = (x: number) => Math.round(x * 100) / 100;

const SERVER = `
export default {
  register(ctx) {
    ctx.routes.admin('GET', '/ping/:n', (req) => ({ ok: true, n: req.params.n }));
    // When each order's event reached the handler, kept in the plugin's memory and read back over its route.
    const seen = new Map();
    ctx.on('order.placed', async (e) => {
      seen.set(e.payload.id, Date.now());
    });
    ctx.routes.admin('GET', '/seen/:order', (req) => ({ at: seen.get(req.params.order) ?? null }));
  },
};`;

async function main() {
  const databaseUrl = await freshBenchDatabase('emporium_sandbox_bench');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'emporium-sandbox-bench-'));
  const pluginsDir = path.join(dataDir, 'local-plugins');
  mkdirSync(pluginsDir);
  const env = {
    DATA_DIR: dataDir,
    PLUGINS_DIR: pluginsDir,
    DATABASE_URL: databaseUrl ?? '',
    LOG_LEVEL: 'silent',
    NODE_ENV: 'development',
    ADMIN_EMAIL: 'bench@example.com',
    ADMIN_PASSWORD: 'bench-password-123',
  };
  const config = loadConfig(env);
  const database = await openDatabase({ databaseUrl, dataDir });
  await database.migrate();
  const app = await buildApp({ database, config, clock: systemClock, logger: false });
  const ctx = { db: database.db, clock: systemClock, log: app.log };
  await bootstrap(ctx, config);
  const workers = createWorkers({ database, clock: systemClock, log: app.log, config, plugins: app.plugins });
  await workers.start();
  const login = await app.inject({
    method: 'POST',
    url: '/auth/user/emailpass',
    payload: { email: env.ADMIN_EMAIL, password: env.ADMIN_PASSWORD },
  });
  const auth = { authorization: `Bearer ${login.json().token}` };

  const src = mkdtempSync(path.join(tmpdir(), 'emporium-sandbox-plugin-'));
  writeFileSync(
    path.join(src, 'manifest.json'),
    JSON.stringify({
      id: ID,
      vendor: 'bench',
      name: 'Bench',
      version: '1.0.0',
      type: 'integration',
      server: 'server.js',
      engine: '*',
    }),
  );
  writeFileSync(path.join(src, 'server.js'), SERVER);
  writeFileSync(path.join(pluginsDir, `${ID}.tgz`), await packPackage(src));
  const res = await app.inject({
    method: 'POST',
    url: '/admin/plugins/install',
    headers: auth,
    payload: { marketplace_id: `@bench/${ID}`, version: '1.0.0', license_key: null },
  });
  await app.plugins.settled();
  const row = (await app.inject({ method: 'GET', url: `/admin/plugins/${res.json().plugin.id}`, headers: auth })).json()
    .plugin;
  if (row.status !== 'installed') throw new Error(`install failed: ${row.error}`);
  // The same route served in the shop's own process: the baseline.
  app.plugins.host.router('admin', ID)!.add('GET', '/inproc/:n', (req) => ({ ok: true, n: req.params.n }));

  const sandboxed: number[] = [];
  const inProcess: number[] = [];
  const one = async (route: string, into: number[], i: number) => {
    const t0 = performance.now();
    const r = await app.inject({ method: 'GET', url: `/admin/plugins/${ID}/${route}/${i}`, headers: auth });
    into.push(performance.now() - t0);
    if (r.statusCode !== 200) throw new Error(`${route}: ${r.statusCode} ${r.body}`);
  };
  for (let i = 0; i < 300; i++) await one(i % 2 ? 'ping' : 'inproc', [], i); // warm-up
  for (let i = 0; i < REQUESTS; i++) {
    await one('ping', sandboxed, i);
    await one('inproc', inProcess, i);
  }

  const latencies: number[] = [];
  for (let i = 0; i < EVENTS; i++) {
    const orderId = `order_bench_${i}`;
    await inTx(ctx, (tctx) => emit(tctx, 'order.placed', { id: orderId } as never));
    const committed = Date.now();
    for (let k = 0; k < 2000; k++) {
      const seen = await app.inject({ method: 'GET', url: `/admin/plugins/${ID}/seen/${orderId}`, headers: auth });
      const at = (seen.json() as { at: number | null }).at;
      if (at !== null) {
        latencies.push(at - committed);
        break;
      }
      await sleep(2);
    }
    await sleep(20);
  }

  const report = {
    database: database.kind,
    requests: REQUESTS,
    route_p50_ms: { sandboxed: r2(pct(sandboxed, 50)), in_process: r2(pct(inProcess, 50)) },
    route_p99_ms: { sandboxed: r2(pct(sandboxed, 99)), in_process: r2(pct(inProcess, 99)) },
    added_p50_ms: r2(pct(sandboxed, 50) - pct(inProcess, 50)),
    events: latencies.length,
    event_commit_to_handler_ms: { p50: pct(latencies, 50), p99: pct(latencies, 99), max: Math.max(...latencies) },
  };
  console.log(JSON.stringify(report, null, 2));
  await workers.stop();
  await app.plugins.stop();
  await app.close();
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(src, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
