/**
 * The storefront journey benchmark: N concurrent shoppers each walk Medusa's Next.js starter's
 * calls (journey-calls.ts: home, a category, two products, cart, two lines, cart read, addresses,
 * shipping, payment, complete, the order page; one in five signs up and reads its account), on
 * Emporium started as `npm start` starts it (dist/main.js: run `npm run build:server` after
 * changing src/), and with `--medusa` on the stock Medusa peer (../shared/tools/medusa-peer.sh,
 * http://127.0.0.1:9100, never reset or stopped here), taking turns A B A B.
 *
 *   npm run bench:journey                                     # PGlite in a temp data dir, 1,000 products
 *   npm run bench:journey -- --shoppers 1,10,50 --seconds 20 --medusa
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:journey   # database emporium_bench_journey
 *   DATABASE_URL=… DATABASE_READ_URL=<replica> npm run bench:journey                 # read replicas (docs/configuration.md)
 *   npm run bench:journey -- --replica --shoppers 1,10 --seconds 20 --rounds 2      # a hot standby of its own: with and without it, A B A B
 *   npm run bench:journey -- --products 100000 --categories 500 --orders 1000000    # the shop grown (hours: seeding is the API's, below)
 *   npm run bench:journey -- --shoppers 10 --versus ../main     # A/B: another checkout's server beside this one, rounds interleaved
 *   npm run bench:journey -- --cpu-calls 40 --shoppers 0         # the server's CPU per call kind, one shopper
 *   BENCH_SERVER_LOG=/tmp/server.log npm run bench:journey              # the server's own log kept (its warnings under load)
 *
 * The shop grown, seeded once and measured at each size on the way (sizes are cumulative: the
 * catalog and the order book grow from one size to the next; `--reuse` keeps the database, or
 * with PGlite `--data-dir`, and seeding goes on from what is there, so a stopped run resumes):
 *
 *   DATABASE_URL=… npm run bench:journey -- --reuse --products 1000,10000,100000 --orders 10000,100000,1000000
 *   npx tsx bench/journey-growth.ts        # docs/journey-growth.md and .svg from bench/results/journey/
 *
 * Products come through the product import job (CSV, `--seed import`, the default from 10,000
 * products) or `POST /admin/products/batch` (`--seed batch`, `--seed-concurrency` at a time);
 * orders through the store API, `--seed-concurrency` at a time (placeOrders in journey-data.ts):
 * two calls an order (a cart created with its line, email and addresses; complete), five orders a
 * customer, the customers made by the admin (`POST /admin/customers`, no password) but one in
 * 1,000 that registers and signs in once; every tenth order captured, every fiftieth canceled.
 * After seeding it prints orders/s with the load average and the CPU per order of the server,
 * PostgreSQL and itself (also in the desk's JSON file, `seeding`): 20-25 ms in all, half of it
 * PostgreSQL's (2026-12-07), so a 2-core machine of its own places at most ~90 orders/s: 100,000
 * orders in 20-55 min, 1,000,000 in 3-9 h (31-40 orders/s measured at load average 11-12;
 * docs/benchmarks.md). `--seed-orders import` writes the same order book through the order import
 * instead (`POST /admin/orders/import`, 1,000 a request: importOrderHistory in journey-data.ts),
 * a million orders in minutes; the desk's JSON says which (`seeding.via`). `--shoppers 0` skips
 * the journey (the desk only). The desk is measured
 * once a size is reached; a resumed run already past a size skips it.
 *
 * `--replica` (journey-replica.ts) measures one read replica on a primary and hot standby of the
 * bench's own (test/hot-standby.ts): the same build with and without DATABASE_READ_URL, a fresh
 * start per turn, A B A B, with the reads each database served counted from its statistics.
 *
 * Reports journeys/s per system and shopper count, the server's CPU per journey (the figure to
 * compare on a shared machine), p50/p99 per call kind, failures (a journey
 * with any non-2xx answer counts as failed and is listed), and with `--orders` the order desk's
 * p50/p99 per call; each size's figures also go to a JSON file in `--results`
 * (bench/results/journey/). Data is made through the API only (journey-data.ts).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  adminLogin,
  discover,
  measureDesk,
  placeOrders,
  importOrderHistory,
  prepareEmporium,
  prepareMedusaCategories,
  publishableKey,
} from './journey-data.ts';
import { cpuMs } from './checkout-setup.ts';
import { journey, type Shop, Timings } from './journey-calls.ts';
import { measureReplica } from './journey-replica.ts';
import { merge, PASSWORD, type Row, report, run, runFigures, type Target } from './journey-rounds.ts';
import {
  ADMIN,
  call,
  closeAgent,
  cpuMsOf,
  expectOk,
  freshBenchDatabase,
  keptBenchDatabase,
  loadAverage,
  ROOT,
  rssMiB,
  startServer,
  waitFor200,
} from './lib.ts';

const { values: opts } = parseArgs({
  options: {
    shoppers: { type: 'string', default: '1,10,50' },
    seconds: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '2' },
    products: { type: 'string', default: '1000' },
    categories: { type: 'string' },
    orders: { type: 'string', default: '0' },
    'desk-samples': { type: 'string', default: '50' },
    reuse: { type: 'boolean', default: false },
    'data-dir': { type: 'string' },
    seed: { type: 'string' },
    'seed-concurrency': { type: 'string', default: '8' },
    /** `checkout` (two store calls an order) or `import` (POST /admin/orders/import, 1,000 a request). */
    'seed-orders': { type: 'string', default: 'checkout' },
    results: { type: 'string', default: path.join(ROOT, 'bench/results/journey') },
    sample: { type: 'boolean', default: false },
    medusa: { type: 'boolean', default: false },
    'medusa-url': { type: 'string', default: 'http://127.0.0.1:9100' },
    port: { type: 'string', default: '9302' },
    'cpu-calls': { type: 'string', default: '0' },
    /** Another checkout (its dist/ built) run beside this one as `baseline`, on the next port, rounds interleaved. */
    versus: { type: 'string' },
    /** A primary and a hot standby of the bench's own; the same build with and without DATABASE_READ_URL, A B A B (journey-replica.ts). */
    replica: { type: 'boolean', default: false },
  },
});
const sizes = (list: string) =>
  list
    .split(',')
    .map(Number)
    .filter((n) => n > 0)
    .sort((a, b) => a - b);
const SHOPPERS = sizes(opts.shoppers);
const SECONDS = Number(opts.seconds);
const ROUNDS = Number(opts.rounds);
const PRODUCTS = sizes(opts.products);
const categoriesFor = (products: number) => Number(opts.categories ?? Math.max(5, Math.round(products / 200)));
const ORDERS = sizes(opts.orders);
const SEED_CONCURRENCY = Number(opts['seed-concurrency']);
const seedMode = (products: number): 'batch' | 'import' =>
  opts.seed === 'batch' || opts.seed === 'import' ? opts.seed : products >= 10_000 ? 'import' : 'batch';
if (opts.seed && opts.seed !== 'batch' && opts.seed !== 'import') throw new Error('--seed is batch or import');
const SEED_ORDERS = opts['seed-orders'];
if (SEED_ORDERS !== 'checkout' && SEED_ORDERS !== 'import') throw new Error('--seed-orders is checkout or import');
if (!PRODUCTS.length) throw new Error('--products: at least one size');
const PORT = Number(opts.port);
const BASE = `http://127.0.0.1:${PORT}`;

/**
 * What each call costs the server, not what it waits: `journeys` journeys one after another, the
 * server's main thread's CPU (/proc/<pid>/schedstat, nanoseconds) read after every call and
 * charged to that call. Work the server does between calls (the event dispatcher after a
 * complete) lands on the next call; argon2 hashing runs on libuv's threads and is not counted.
 */
async function cpuPerCall(target: Target, pid: number, journeys: number) {
  const cpuNs = () => Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]);
  class Charged extends Timings {
    last = cpuNs();
    readonly cpu = new Map<string, number>();
    override add(kind: string, ms: number): void {
      super.add(kind, ms);
      const now = cpuNs();
      this.cpu.set(kind, (this.cpu.get(kind) ?? 0) + (now - this.last) / 1e6);
      this.last = now;
    }
  }
  for (let k = 0; k < 5; k++) await journey(target.shop, target.next++, new Timings(), PASSWORD);
  const t = new Charged();
  const start = cpuNs();
  for (let k = 0; k < journeys; k++) await journey(target.shop, target.next++, t, PASSWORD);
  const rows = [...t.cpu]
    .map(([kind, ms]) => ({
      kind,
      calls: t.ms.get(kind)?.length ?? 0,
      'cpu ms/call': +(ms / (t.ms.get(kind)?.length || 1)).toFixed(2),
      'cpu ms/journey': +(ms / journeys).toFixed(2),
    }))
    .sort((a, b) => b['cpu ms/journey'] - a['cpu ms/journey']);
  const perJourney = (cpuNs() - start) / 1e6 / journeys;
  console.table(rows);
  console.error(`[journey] server main thread: ${perJourney.toFixed(1)} ms of CPU per journey, one shopper`);
  return { journeys, cpu_ms_per_journey: +perJourney.toFixed(1), calls: rows };
}

function medusaKeys(): Record<string, string> {
  const script =
    process.env.MEDUSA_PEER_SCRIPT ??
    ['../../shared', '../../../shared']
      .map((up) => path.resolve(import.meta.dirname, up, 'tools/medusa-peer.sh'))
      .find((file) => existsSync(file)) ??
    'medusa-peer.sh';
  const out = execFileSync('bash', [script, 'keys'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  return Object.fromEntries(
    out
      .split('\n')
      .filter((l) => l.includes('='))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
}

/** One size's figures as JSON in `--results` (journey-growth.ts renders them), with the machine's state. */
function writeResult(name: string, body: Record<string, unknown>): void {
  mkdirSync(opts.results, { recursive: true });
  const file = path.join(opts.results, `${name}.json`);
  const machine = { load: loadAverage(), cpus: cpus().length, node: process.version };
  writeFileSync(
    file,
    `${JSON.stringify({ ...body, sample: opts.sample, date: new Date().toISOString(), machine }, null, 2)}\n`,
  );
  console.error(`[journey] wrote ${path.relative(process.cwd(), file)}`);
}

/**
 * Orders `have`..`orders`-1 placed (placeOrders), and what that cost: orders/s with the load
 * average, and the CPU per order of the server, PostgreSQL's backends of the database and this
 * script, which says more than orders/s on a shared machine (2 cores: 2,000 ms of CPU a second).
 */
async function seedOrders(
  shop: Shop,
  admin: Record<string, string>,
  have: number,
  orders: number,
  serverPid: number,
  databaseUrl: string | undefined,
) {
  console.error(
    `[journey] orders ${have} → ${orders} for the order desk (${SEED_ORDERS === 'import' ? 'the order import' : 'through the store API'})`,
  );
  const dbName = databaseUrl ? new URL(databaseUrl).pathname.slice(1) : '';
  const before = databaseUrl ? cpuMs(serverPid, dbName) : { server: cpuMsOf(serverPid), postgres: 0 };
  const script = process.cpuUsage();
  const seed = SEED_ORDERS === 'import' ? importOrderHistory : placeOrders;
  const seconds = await seed(shop, admin, have, orders, SEED_CONCURRENCY);
  const after = databaseUrl ? cpuMs(serverPid, dbName) : { server: cpuMsOf(serverPid), postgres: 0 };
  const used = process.cpuUsage(script);
  const perOrder = (ms: number) => +(ms / (orders - have)).toFixed(2);
  const seeding = {
    via: SEED_ORDERS,
    from: have,
    to: orders,
    seconds: +seconds.toFixed(1),
    orders_per_s: +((orders - have) / seconds).toFixed(1),
    load: loadAverage(),
    cpu_ms_per_order: {
      server: perOrder(after.server - before.server),
      ...(databaseUrl && { postgres: perOrder(after.postgres - before.postgres) }),
      script: perOrder((used.user + used.system) / 1000),
    },
  };
  console.error(`  ${JSON.stringify(seeding)}`);
  return seeding;
}

const stops: (() => Promise<void> | undefined)[] = [];

/**
 * `--versus <dir>`: that checkout's server (`npm start` there: its dist/ and migrations) beside
 * this one, on the next port, with a data dir (or database) of its own, seeded the same way; its
 * target `baseline` takes turns with `emporium` in every round.
 */
async function startBaseline(root: string, databaseUrl: string | undefined) {
  const port = PORT + 1;
  const base = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'emporium-bench-journey-baseline-'));
  const url = databaseUrl ? await freshBenchDatabase('emporium_bench_journey_baseline') : undefined;
  const server = startServer(
    port,
    {
      DATA_DIR: dataDir,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      DATABASE_URL: url ?? '',
      DATABASE_READ_URL: '',
      RATE_LIMIT_TRUSTED_IPS: '127.0.0.1',
    },
    { root: path.resolve(root) },
  );
  await waitFor200(`${base}/health`, performance.now(), { server });
  const admin = await adminLogin(base, ADMIN.email, ADMIN.password);
  const key = await publishableKey(base, admin);
  return {
    async prepare(products: number, categories: number): Promise<Target> {
      await prepareEmporium(base, admin, key, {
        products,
        categories,
        mode: seedMode(products),
        concurrency: SEED_CONCURRENCY,
      });
      return {
        name: 'baseline',
        shop: await discover(base, key),
        next: 0,
        cpu: () => cpuMsOf(server.pid()),
        rss: () => rssMiB(server.pid()),
      };
    },
    async stop() {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function main() {
  console.error(`[journey] machine: load ${loadAverage()} (figures on a shared machine are noise)`);
  if (opts.replica) {
    if (PRODUCTS.length > 1 || ORDERS.length || opts.medusa || opts.versus || opts.reuse || opts['data-dir'])
      throw new Error('--replica: one --products size, without --orders, --medusa, --versus, --reuse or --data-dir');
    if (!SHOPPERS.length) throw new Error('--replica: at least one --shoppers count');
    await measureReplica({
      port: PORT,
      products: PRODUCTS[0],
      categories: categoriesFor(PRODUCTS[0]),
      seedMode: seedMode(PRODUCTS[0]),
      seedConcurrency: SEED_CONCURRENCY,
      shoppers: SHOPPERS,
      seconds: SECONDS,
      rounds: ROUNDS,
      writeResult,
    });
    closeAgent();
    return;
  }
  const databaseUrl = opts.reuse
    ? await keptBenchDatabase('emporium_bench_journey')
    : await freshBenchDatabase('emporium_bench_journey');
  if (opts.reuse && !databaseUrl && !opts['data-dir']) throw new Error('--reuse on PGlite needs --data-dir');
  const dataDir = opts['data-dir'] ?? mkdtempSync(path.join(tmpdir(), 'emporium-bench-journey-'));
  mkdirSync(dataDir, { recursive: true });
  const database = databaseUrl ? 'postgres' : 'pglite';
  // A replica of the bench's server holds the bench's database under the same name.
  const readUrls = (process.env.DATABASE_READ_URL ?? '')
    .split(',')
    .filter(Boolean)
    .map((u) => {
      const url = new URL(u);
      url.pathname = new URL(databaseUrl ?? u).pathname;
      return url.toString();
    });
  const server = startServer(PORT, {
    DATABASE_READ_URL: databaseUrl ? readUrls.join(',') : '',
    DATA_DIR: dataDir,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    DATABASE_URL: databaseUrl ?? '',
    // A storefront server calls for every shopper from one address (docs/storefront.md).
    RATE_LIMIT_TRUSTED_IPS: '127.0.0.1',
  });
  try {
    await waitFor200(`${BASE}/health`, performance.now(), { server });
    const admin = await adminLogin(BASE, ADMIN.email, ADMIN.password);
    const key = await publishableKey(BASE, admin);
    const baseline = opts.versus ? await startBaseline(opts.versus, databaseUrl) : undefined;
    stops.push(() => baseline?.stop());
    let emporium: Target | undefined;
    for (const [step, products] of PRODUCTS.entries()) {
      const categories = categoriesFor(products);
      const seedStart = performance.now();
      console.error(`[journey] ${products} products in ${categories} categories (${seedMode(products)})`);
      await prepareEmporium(BASE, admin, key, {
        products,
        categories,
        mode: seedMode(products),
        concurrency: SEED_CONCURRENCY,
      });
      emporium = {
        name: 'emporium',
        shop: await discover(BASE, key),
        next: 0,
        cpu: () => cpuMsOf(server.pid()),
        rss: () => rssMiB(server.pid()),
      };
      const versus = baseline && (await baseline.prepare(products, categories));
      console.error(`[journey] prepared in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);
      const cpuCalls = Number(opts['cpu-calls']);
      if (cpuCalls > 0)
        writeResult(`cpu-calls-${database}-${products}-products`, {
          kind: 'cpu-calls',
          database,
          products,
          ...(await cpuPerCall(emporium, server.pid(), cpuCalls)),
        });
      if (!SHOPPERS.length) continue;

      const targets = versus ? [emporium, versus] : [emporium];
      // Medusa's peer holds its own 1,000 products: compared at the first size only.
      if (opts.medusa && step === 0) {
        const keys = medusaKeys();
        const base = opts['medusa-url'];
        const medusaAdmin = { authorization: `Bearer ${keys.ADMIN_TOKEN}` };
        await prepareMedusaCategories(base, medusaAdmin, keys.PUBLISHABLE_KEY, 5);
        targets.push({ name: 'medusa', shop: await discover(base, keys.PUBLISHABLE_KEY), next: 0 });
      }
      const rows: Row[] = [];
      for (const shoppers of SHOPPERS) {
        // One journey each first, so neither system is measured cold.
        for (const t of targets) await journey(t.shop, t.next++, new Timings(), PASSWORD);
        const rounds: Row[] = [];
        for (let round = 0; round < ROUNDS; round++)
          for (const t of targets) rounds.push(await run(t, shoppers, SECONDS / ROUNDS));
        for (const t of targets) rows.push(merge(rounds.filter((r) => r.system === t.name)));
        const rss = targets.flatMap((t) => (t.rss ? [`${t.name} ${t.rss()}`] : [])).join(', ');
        console.error(`[journey] ${shoppers} shoppers done; load ${loadAverage()}, server RSS (MiB) ${rss}`);
      }
      report(rows);
      writeResult(`journey-${database}-${products}-products`, {
        kind: 'journey',
        database,
        products,
        categories,
        replicas: readUrls.length,
        rss_mib: rssMiB(server.pid()),
        runs: rows.map(runFigures),
      });
    }

    for (const orders of ORDERS) {
      if (!emporium) break;
      const have = (await expectOk(call(BASE, 'GET', '/admin/orders?limit=1', admin))).count as number;
      // A resumed run past this size: its desk was measured then, and cannot be measured at this size again.
      if (have > orders) {
        console.error(`[journey] ${have} orders already: the desk at ${orders} is not measured again`);
        continue;
      }
      const seeding =
        have < orders ? await seedOrders(emporium.shop, admin, have, orders, server.pid(), databaseUrl) : undefined;
      const desk = await measureDesk(BASE, admin, Number(opts['desk-samples']));
      console.table(desk);
      const customers = (await expectOk(call(BASE, 'GET', '/admin/customers?limit=1', admin))).count as number;
      writeResult(`desk-${database}-${orders}-orders`, {
        kind: 'desk',
        database,
        orders,
        customers,
        products: PRODUCTS[PRODUCTS.length - 1],
        rss_mib: rssMiB(server.pid()),
        ...(seeding && { seeding }),
        calls: Object.fromEntries(
          Object.entries(desk).map(([kind, f]) => [kind, { p50: f['p50 ms'], p99: f['p99 ms'] }]),
        ),
      });
      console.error(`[journey] server RSS ${rssMiB(server.pid())} MiB`);
    }
  } finally {
    await server.stop();
    for (const stop of stops) await stop();
    closeAgent();
    if (!opts['data-dir']) rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
