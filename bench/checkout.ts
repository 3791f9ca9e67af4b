/**
 * Checkout benchmark: starts the real server as a child process, seeds a region and a product
 * with a large stock through the admin API, then measures the three-call storefront flow
 *   POST /store/carts {email} → POST /store/carts/{id}/line-items → POST /store/carts/{id}/complete
 * (and the two-call form, cart created with its item) sequentially (median ms per flow) and with
 * 10 concurrent shoppers (orders/s). Ends with a hot-item run (10 shoppers racing for 100 units)
 * and checks that no unit was oversold.
 *
 *   npm run bench:checkout                                          # PGlite in a temp data dir
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:checkout   # uses database emporium_bench_checkout
 *   npm run bench:checkout -- --flows 300 --seconds 10 --shoppers 10
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  ADMIN,
  call as callAt,
  closeAgent,
  expectOk,
  freshBenchDatabase,
  publishableKeyOf,
  startServer,
  waitFor200,
} from './lib.ts';
import { percentile } from './measure.ts';

const { values: opts } = parseArgs({
  options: {
    flows: { type: 'string', default: '300' },
    seconds: { type: 'string', default: '10' },
    shoppers: { type: 'string', default: '10' },
    port: { type: 'string', default: '9301' },
  },
});
const FLOWS = Number(opts.flows);
const SECONDS = Number(opts.seconds);
const SHOPPERS = Number(opts.shoppers);
const PORT = Number(opts.port);
const BASE = `http://127.0.0.1:${PORT}`;
const DB_NAME = 'emporium_bench_checkout';

const call = (method: string, url: string, headers: Record<string, string>, body?: unknown) =>
  callAt(BASE, method, url, headers, body);

async function seed(): Promise<{ admin: Record<string, string>; variantId: (stock: number) => Promise<string> }> {
  const { token } = await expectOk(call('POST', '/auth/user/emailpass', {}, ADMIN));
  const admin = { authorization: `Bearer ${token}` };
  await expectOk(
    call('POST', '/admin/regions', admin, { name: 'Europe', currency_code: 'eur', countries: ['de', 'fr'] }),
  );
  const { sales_channels } = await expectOk(call('GET', '/admin/sales-channels', admin));
  const variantId = async (stock: number) => {
    const { product } = await expectOk(
      call('POST', '/admin/products', admin, {
        title: `Bench tee ${stock}`,
        status: 'published',
        sales_channels: [{ id: sales_channels[0].id }],
        options: [{ title: 'Size', values: ['M'] }],
        variants: [
          {
            title: 'M',
            options: { Size: 'M' },
            prices: [{ currency_code: 'eur', amount: 2500 }],
            inventory_quantity: stock,
            manage_inventory: true,
          },
        ],
      }),
    );
    return product.variants[0].id as string;
  };
  return { admin, variantId };
}

type Flow = (store: Record<string, string>, variantId: string, n: number) => Promise<number>;

/** The three-call flow; returns the HTTP status of the completion. */
const threeCalls: Flow = async (store, variantId, n) => {
  const { cart } = await expectOk(call('POST', '/store/carts', store, { email: `shopper${n}@example.com` }));
  await expectOk(call('POST', `/store/carts/${cart.id}/line-items`, store, { variant_id: variantId, quantity: 1 }));
  return (await call('POST', `/store/carts/${cart.id}/complete`, store)).status;
};

const twoCalls: Flow = async (store, variantId, n) => {
  // Adding an item checks stock too: on a sold-out item the cart itself is refused (400).
  const created = await call('POST', '/store/carts', store, {
    email: `shopper${n}@example.com`,
    items: [{ variant_id: variantId, quantity: 1 }],
  });
  if (created.status !== 200) return created.status;
  return (await call('POST', `/store/carts/${created.json.cart.id}/complete`, store)).status;
};

/**
 * CPU time (ms) used so far by the server process and by the PostgreSQL backends serving the
 * bench database (Linux /proc; clock ticks of 10 ms). On a shared machine, CPU per order says
 * more than wall-clock rates, which depend on what else runs.
 */
function cpuMs(serverPid: number): { server: number; postgres: number } {
  const ticks = (pid: string) => {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return Number(fields[11]) + Number(fields[12]);
  };
  let postgres = 0;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(DB_NAME)) postgres += ticks(pid);
    } catch {
      // the process ended meanwhile
    }
  }
  return { server: ticks(String(serverPid)) * 10, postgres: postgres * 10 };
}

let serverPid = 0;
async function measured<T extends { flows: number }>(run: () => Promise<T>) {
  const before = cpuMs(serverPid);
  const row = await run();
  const after = cpuMs(serverPid);
  const orders = 'orders' in row ? (row.orders as number) : row.flows;
  const perOrder = (ms: number) => +(ms / orders).toFixed(1);
  return {
    ...row,
    'server cpu ms/order': perOrder(after.server - before.server),
    // PGlite runs inside the server process: its work is in the server's figure.
    ...(process.env.DATABASE_URL ? { 'pg cpu ms/order': perOrder(after.postgres - before.postgres) } : {}),
  };
}

async function sequential(name: string, flow: Flow, store: Record<string, string>, variantId: string) {
  const times: number[] = [];
  for (let i = 0; i < FLOWS; i++) {
    const start = performance.now();
    const status = await flow(store, variantId, i);
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

async function concurrent(
  name: string,
  flow: Flow,
  store: Record<string, string>,
  variantId: string,
  until: () => boolean,
) {
  let orders = 0;
  let refused = 0;
  let n = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: SHOPPERS }, async () => {
      while (!until()) {
        const status = await flow(store, variantId, n++);
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

async function stockOf(admin: Record<string, string>, variantId: string): Promise<number> {
  const { products } = await expectOk(call('GET', `/admin/products?limit=1000`, admin));
  for (const p of products) for (const v of p.variants) if (v.id === variantId) return v.inventory_quantity;
  throw new Error(`variant ${variantId} not found`);
}

async function main() {
  const databaseUrl = await freshBenchDatabase(DB_NAME);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'emporium-bench-checkout-'));
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    DATABASE_URL: databaseUrl ?? '',
  };
  // `npm start` on an empty data dir: it migrates, creates the admin and prints the publishable key.
  const server = startServer(PORT, env);
  try {
    await waitFor200(`${BASE}/health`, performance.now(), { server });
    serverPid = server.pid();
    const store = { 'x-publishable-api-key': await publishableKeyOf(server) };
    const { admin, variantId } = await seed();
    const plenty = await variantId(10_000_000);
    for (let i = 0; i < 20; i++) await threeCalls(store, plenty, -i); // warm-up (JIT, pool, statement caches)
    const results = [];
    results.push(await measured(() => sequential('3 calls (create, add item, complete)', threeCalls, store, plenty)));
    results.push(await measured(() => sequential('2 calls (create with item, complete)', twoCalls, store, plenty)));
    let deadline = performance.now() + SECONDS * 1000;
    results.push(
      await measured(() => concurrent('3 calls', threeCalls, store, plenty, () => performance.now() > deadline)),
    );
    deadline = performance.now() + SECONDS * 1000;
    results.push(
      await measured(() => concurrent('2 calls', twoCalls, store, plenty, () => performance.now() > deadline)),
    );
    const soldPlenty = results.reduce((s, r) => s + ('orders' in r ? r.orders : r.flows), 0) + 20; // + warm-ups

    // Hot item: everyone races for 100 units; afterwards there must be exactly 100 orders of it.
    const hot = await variantId(100);
    let attempts = 0;
    const race = await measured(() =>
      concurrent('hot item (100 units)', twoCalls, store, hot, () => attempts++ >= 300),
    );
    results.push(race);
    const hotLeft = await stockOf(admin, hot);
    const plentyLeft = await stockOf(admin, plenty);
    const oversold = hotLeft < 0 || race.orders !== 100 || plentyLeft !== 10_000_000 - soldPlenty;

    const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
    console.log(
      `\nEmporium checkout benchmark: ${databaseUrl ? 'postgres' : 'pglite'}, ${FLOWS} sequential flows, ${SECONDS}s per concurrent run, load average ${load}`,
    );
    console.table(results);
    console.log(
      `hot item: ${race.orders} orders for 100 units, stock left ${hotLeft}; big item: stock ${plentyLeft} after ${soldPlenty} orders → ${oversold ? 'MISMATCH' : 'no oversell'}`,
    );
    if (oversold) process.exitCode = 1;
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
