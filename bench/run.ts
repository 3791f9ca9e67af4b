/**
 * `npm run bench`: the figures of docs/benchmarks.md, measured as a user gets them. For the embedded
 * database (and, with DATABASE_URL, PostgreSQL, on a recreated database `emporium_bench`): `npm
 * start` on an empty DATA_DIR, products created through POST /admin/products/batch, 100 a
 * request (a Size option, S/M variants, EUR prices, stock; a region), a restart, then the request
 * figures right after seeding and again after a few minutes of running, beside a bare Fastify route
 * in the same run. Nothing in bench/ writes to or maintains the database directly.
 *
 *   npm run bench                         # the whole set on PGlite; add DATABASE_URL=postgres://… for PostgreSQL too
 *   npm run bench -- --quick              # one measurement right after seeding, no q search (a few minutes)
 *   npm run bench -- --wait 300 --products 1000 --seconds 10 --connections 10 --flows 100
 *   npm run bench -- --search-products 0  # the whole set without the q search at 100,000 products (its
 *                                         # products are created through the API in batches: ~13 min on PGlite)
 *   npm run bench -- --quick --search     # one measurement, with the q search
 *   npm run bench -- --medusa             # also a stock Medusa v2.21.2 on this machine (../shared/tools/medusa-peer.sh)
 *
 * The server under test is the compiled one (dist/): run `npm install` or `npm run build:server` first.
 */
import { parseArgs } from 'node:util';
import { type BackendResult, benchBackend, type Options } from './backend.ts';
import { clientName } from './client.ts';
import { closeAgent, loadAverage } from './lib.ts';
import { benchMedusa, type MedusaResult } from './medusa.ts';

const { values: v } = parseArgs({
  options: {
    products: { type: 'string', default: '1000' },
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10' },
    flows: { type: 'string', default: '100' },
    wait: { type: 'string', default: '180' },
    quick: { type: 'boolean', default: false },
    search: { type: 'boolean', default: false },
    'search-products': { type: 'string', default: '100000' },
    medusa: { type: 'boolean', default: false },
    port: { type: 'string', default: '9300' },
  },
});
const opts: Options = {
  products: Number(v.products),
  seconds: Number(v.seconds),
  connections: Number(v.connections),
  flows: Number(v.flows),
  waitSeconds: Number(v.wait),
  quick: v.quick!,
  // The q figures are part of the whole set; a quick look leaves them out unless asked for.
  searchProducts: v.quick && !v.search ? 0 : Number(v['search-products']),
  port: Number(v.port),
};

type Row = { figure: string; [column: string]: string | number };
const TARGETS = {
  pglite: { list: 2000, p99: 25, share: 40, byId: 3000, start: 800, firstStart: 3000, rss: 200, checkout: 15 },
  postgres: { list: 3000, p99: 15, share: 50, byId: 6000, start: 400, firstStart: 0, rss: 100, checkout: 12 },
};
const mark = (ok: boolean) => (ok ? 'met' : 'MISSED');
const INFO = new Set(['info', 'reference']);

function table(r: BackendResult): Row[] {
  const t = TARGETS[r.kind];
  const rows: Row[] = [];
  const each = (
    figure: string,
    target: string,
    f: (s: BackendResult['sets'][0]['figures']) => [number | string, boolean],
  ) => {
    const row: Row = { figure, target };
    for (const s of r.sets) {
      const [value, ok] = f(s.figures);
      row[s.label] = INFO.has(target) ? value : `${value} ${mark(ok)}`;
    }
    rows.push(row);
  };
  each(`store list req/s (${opts.connections} conn)`, `≥ ${t.list}`, (f) => [
    f.list['req/s'],
    f.list['req/s'] >= t.list,
  ]);
  each('store list p99 ms', `< ${t.p99}`, (f) => [f.list['p99 ms'], f.list['p99 ms'] < t.p99]);
  each('bare Fastify, same body, req/s', 'reference', (f) => [f.reference['req/s'], true]);
  each('store list as share of bare Fastify', `≥ ${t.share} %`, (f) => {
    const share = Math.round((100 * f.list['req/s']) / f.reference['req/s']);
    return [`${share} %`, share >= t.share];
  });
  each('product by id req/s', `≥ ${t.byId}`, (f) => [f.byId['req/s'], f.byId['req/s'] >= t.byId]);
  const signed = (d: number) => `${d > 0 ? '+' : ''}${d} %`;
  each('list with region_id vs plain list (interleaved)', 'within 20 %', (f) => {
    const d = Math.round(100 * (f.regionRatio - 1));
    return [signed(d), d >= -20];
  });
  each(`the same from the two ${opts.seconds} s loads, one after the other`, 'info', (f) => [
    signed(Math.round((100 * (f.region['req/s'] - f.list['req/s'])) / f.list['req/s'])),
    true,
  ]);
  // Once the server costs little per request, the larger body (Medusa's calculated_price shape) is what remains.
  each('list body KB / with region_id', 'info', (f) => [
    f.bodyBytes.map((b) => (b / 1024).toFixed(0)).join(' / '),
    true,
  ]);
  each('bare Fastify with the region body, req/s', 'info', (f) => [f.regionReference['req/s'], true]);
  each('list with region_id as share of that', 'info', (f) => [
    `${Math.round((100 * f.region['req/s']) / f.regionReference['req/s'])} %`,
    true,
  ]);
  each('checkout 3 calls, sequential median ms', `≤ ${t.checkout}`, (f) => [
    f.checkout['median ms'],
    f.checkout['median ms'] <= t.checkout,
  ]);
  each('load average during the set', 'info', (f) => [f.load, true]);
  const first = r.sets[0].label;
  const once = (figure: string, target: string, value: string | number, ok: boolean) =>
    rows.push({ figure, target, [first]: INFO.has(target) ? value : `${value} ${mark(ok)}` });
  once(
    'spawn of npm start → /health 200, existing data',
    `≤ ${t.start} ms`,
    Math.round(r.startMs),
    r.startMs <= t.start,
  );
  once('the restart right after seeding (not counted): → /health 200', 'info', Math.round(r.startAfterSeedingMs), true);
  once('the same restart → first store list 200', 'info', Math.round(r.firstListMs), true);
  once('spawn of the start script without npm → /health 200', 'info', Math.round(r.directStartMs), true);
  if (r.kind === 'pglite')
    once(
      'first start on an empty DATA_DIR',
      `≤ ${t.firstStart} ms`,
      Math.round(r.firstStartMs),
      r.firstStartMs <= t.firstStart,
    );
  once('RSS after 2,000 list requests, MiB', `≤ ${t.rss}`, r.rssAfter2000, r.rssAfter2000 <= t.rss);
  once(`seeding ${opts.products} products through the API, s`, 'info', r.seedSeconds.toFixed(1), true);
  if (r.search) {
    once(
      `q selective p50 ms (${r.search.products} products)`,
      '< 10',
      r.search.selective['p50 ms'],
      r.search.selective['p50 ms'] < 10,
    );
    once(
      `q broad (12.5 %) p50 ms (${r.search.products} products)`,
      '< 30',
      r.search.broad['p50 ms'],
      r.search.broad['p50 ms'] < 30,
    );
    once(
      `q selective, never asked before, p50 ms`,
      '< 10',
      r.search.selectiveMiss['p50 ms'],
      r.search.selectiveMiss['p50 ms'] < 10,
    );
    once(
      `q broad, a page never asked before, p50 ms`,
      '< 30',
      r.search.broadMiss['p50 ms'],
      r.search.broadMiss['p50 ms'] < 30,
    );
  }
  return rows;
}

function medusaTable(m: MedusaResult, ours: BackendResult): Row[] {
  const f = ours.sets[0].figures;
  // Two decimals under 10×, so a ratio just under a target (3.99 against 4) does not print as met.
  const ratio = (x: number) => `${x >= 10 ? Math.round(x) : x.toFixed(2)}×`;
  return [
    {
      figure: 'store list req/s',
      medusa: m.list['req/s'],
      emporium: f.list['req/s'],
      ratio: ratio(f.list['req/s'] / m.list['req/s']),
      target: '≥ 100×',
    },
    {
      figure: 'product by id req/s',
      medusa: m.byId['req/s'],
      emporium: f.byId['req/s'],
      ratio: ratio(f.byId['req/s'] / m.byId['req/s']),
      target: 'info',
    },
    {
      figure: 'checkout median ms (Medusa: its 8-call flow)',
      medusa: m.checkoutMedianMs,
      emporium: f.checkout['median ms'],
      ratio: ratio(m.checkoutMedianMs / f.checkout['median ms']),
      target: '≥ 30×',
    },
    {
      figure: 'spawn of npm start → /health 200 ms, both',
      medusa: Math.round(m.startMs),
      emporium: Math.round(ours.startMs),
      ratio: ratio(m.startMs / ours.startMs),
      target: '≥ 10×',
    },
    {
      figure: 'the same without npm (Medusa: its binary; ours: the start script by sh)',
      medusa: Math.round(m.directStartMs),
      emporium: Math.round(ours.directStartMs),
      ratio: ratio(m.directStartMs / ours.directStartMs),
      target: '≥ 10×',
    },
    {
      figure: "Medusa's start as the peer script reads it (its binary, curl every 100 ms)",
      medusa: m.peerScriptStartMs,
      emporium: '',
      ratio: '',
      target: 'info',
    },
    {
      figure: 'RSS after 2,000 list requests MiB',
      medusa: m.rssAfter2000,
      emporium: ours.rssAfter2000,
      ratio: ratio(m.rssAfter2000 / ours.rssAfter2000),
      target: '≥ 4×',
    },
  ];
}

async function main() {
  console.log(
    `Emporium benchmark: ${opts.products} products (Size S/M, EUR, stock) created through the admin API; ` +
      `${opts.seconds} s per load at ${opts.connections} connections (client: ${clientName()}); ${opts.flows} checkout flows; load average at start ${loadAverage()}`,
  );
  if (clientName() === 'autocannon')
    console.log(
      'wrk is not installed (apt-get install wrk): autocannon reads a 60 KB body about as slowly as the server writes it, so the share of bare Fastify is bounded by the client',
    );
  // Each table as soon as its backend is done: a long run on a busy machine still leaves figures behind.
  const results: BackendResult[] = [];
  for (const kind of process.env.DATABASE_URL ? (['pglite', 'postgres'] as const) : (['pglite'] as const)) {
    const r = await benchBackend(kind, { ...opts, port: opts.port + (kind === 'postgres' ? 2 : 0) });
    results.push(r);
    console.log(`\n${r.kind === 'pglite' ? 'Embedded database (PGlite)' : 'PostgreSQL (DATABASE_URL)'}`);
    console.table(table(r));
  }
  if (!v.medusa) return;
  const medusa = await benchMedusa({
    products: opts.products,
    port: opts.port + 10,
    connections: opts.connections,
    seconds: opts.seconds,
  });
  for (const r of results) {
    console.log(`\nAgainst stock Medusa v2.21.2 on this machine (${r.kind})`);
    console.table(medusaTable(medusa, r));
  }
}

main()
  .catch((err) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(closeAgent);
