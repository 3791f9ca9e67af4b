/**
 * Checkout benchmark: starts the real server as a child process, seeds a region and a product
 * with a large stock through the admin API, then measures the three-call storefront flow
 *   POST /store/carts {email} → POST /store/carts/{id}/line-items → POST /store/carts/{id}/complete
 * (and the two-call form, cart created with its item) sequentially (median ms per flow) and with
 * 10 concurrent shoppers (orders/s). Ends with a hot-item run (10 shoppers racing for 100 units)
 * and checks that no unit was oversold. The shop and the flows are bench/checkout-setup.ts's, which
 * bench/checkout-ab.ts measures too.
 *
 *   npm run bench:checkout                                          # PGlite in a temp data dir
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:checkout   # uses database emporium_bench_checkout
 *   npm run bench:checkout -- --flows 300 --seconds 10 --shoppers 10
 */
import { parseArgs } from 'node:util';
import { type CheckoutShop, cpuMs, type Flow, startCheckoutShop, threeCalls, twoCalls } from './checkout-setup.ts';
import { expectOk, freshBenchDatabase, loadAverage } from './lib.ts';
import { percentile } from './measure.ts';

const { values: opts } = parseArgs({
  options: {
    flows: { type: 'string', default: '300' },
    seconds: { type: 'string', default: '10' },
    shoppers: { type: 'string', default: '10' },
    port: { type: 'string', default: '9301' },
    help: { type: 'boolean', default: false },
  },
});
if (opts.help) {
  console.log('npm run bench:checkout -- [--flows 300] [--seconds 10] [--shoppers 10] [--port 9301]');
  process.exit(0);
}
const FLOWS = Number(opts.flows);
const SECONDS = Number(opts.seconds);
const SHOPPERS = Number(opts.shoppers);
const PORT = Number(opts.port);
const DB_NAME = 'emporium_bench_checkout';

let serverPid = 0;
async function measured<T extends { flows: number }>(run: () => Promise<T>) {
  const before = cpuMs(serverPid, DB_NAME);
  const row = await run();
  const after = cpuMs(serverPid, DB_NAME);
  const orders = 'orders' in row ? (row.orders as number) : row.flows;
  const perOrder = (ms: number) => +(ms / orders).toFixed(1);
  return {
    ...row,
    'server cpu ms/order': perOrder(after.server - before.server),
    // PGlite runs inside the server process: its work is in the server's figure.
    ...(process.env.DATABASE_URL ? { 'pg cpu ms/order': perOrder(after.postgres - before.postgres) } : {}),
  };
}

async function sequential(name: string, flow: Flow, shop: CheckoutShop, variantId: string) {
  const times: number[] = [];
  for (let i = 0; i < FLOWS; i++) {
    const start = performance.now();
    const status = await flow(shop, variantId, i);
    if (status !== 200) throw new Error(`completion answered ${status}`);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return {
    scenario: `${name}, sequential`,
    flows: FLOWS,
    'median ms': +percentile(times, 50).toFixed(2),
    'p95 ms': +percentile(times, 95).toFixed(2),
    'orders/s': Math.round(1000 / (times.reduce((s, t) => s + t, 0) / FLOWS)),
  };
}

async function concurrent(name: string, flow: Flow, shop: CheckoutShop, variantId: string, until: () => boolean) {
  let orders = 0;
  let refused = 0;
  let n = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: SHOPPERS }, async () => {
      while (!until()) {
        const status = await flow(shop, variantId, n++);
        if (status === 200) orders++;
        else refused++;
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  return {
    scenario: `${name}, ${SHOPPERS} shoppers`,
    flows: orders + refused,
    orders,
    refused,
    'orders/s': Math.round(orders / seconds),
  };
}

async function stockOf(shop: CheckoutShop, variantId: string): Promise<number> {
  const { products } = await expectOk(shop.call('GET', `/admin/products?limit=1000`, shop.admin));
  for (const p of products) for (const v of p.variants) if (v.id === variantId) return v.inventory_quantity;
  throw new Error(`variant ${variantId} not found`);
}

async function main() {
  const databaseUrl = await freshBenchDatabase(DB_NAME);
  const shop = await startCheckoutShop({ port: PORT, databaseUrl });
  try {
    serverPid = shop.server.pid();
    const plenty = await shop.variantId(10_000_000);
    for (let i = 0; i < 20; i++) await threeCalls(shop, plenty, -i); // warm-up (JIT, pool, statement caches)
    const results = [];
    results.push(await measured(() => sequential('3 calls (create, add item, complete)', threeCalls, shop, plenty)));
    results.push(await measured(() => sequential('2 calls (create with item, complete)', twoCalls, shop, plenty)));
    let deadline = performance.now() + SECONDS * 1000;
    results.push(
      await measured(() => concurrent('3 calls', threeCalls, shop, plenty, () => performance.now() > deadline)),
    );
    deadline = performance.now() + SECONDS * 1000;
    results.push(
      await measured(() => concurrent('2 calls', twoCalls, shop, plenty, () => performance.now() > deadline)),
    );
    const soldPlenty = results.reduce((s, r) => s + ('orders' in r ? r.orders : r.flows), 0) + 20; // + warm-ups

    // Hot item: everyone races for 100 units; afterwards there must be exactly 100 orders of it.
    const hot = await shop.variantId(100);
    let attempts = 0;
    const race = await measured(() => concurrent('hot item (100 units)', twoCalls, shop, hot, () => attempts++ >= 300));
    results.push(race);
    const hotLeft = await stockOf(shop, hot);
    const plentyLeft = await stockOf(shop, plenty);
    const oversold = hotLeft < 0 || race.orders !== 100 || plentyLeft !== 10_000_000 - soldPlenty;

    console.log(
      `\nEmporium checkout benchmark: ${databaseUrl ? 'postgres' : 'pglite'}, ${FLOWS} sequential flows, ${SECONDS}s per concurrent run, load average ${loadAverage()}`,
    );
    console.table(results);
    console.log(
      `hot item: ${race.orders} orders for 100 units, stock left ${hotLeft}; big item: stock ${plentyLeft} after ${soldPlenty} orders → ${oversold ? 'MISMATCH' : 'no oversell'}`,
    );
    if (oversold) process.exitCode = 1;
  } finally {
    await shop.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
