/**
 * The store's hot reads, this checkout against another one, in one run: both servers up side by
 * side (`npm start`, each on an empty DATA_DIR or a fresh PostgreSQL database), each given the
 * same 1,000 products through the API as `npm run bench` does, then the same loads taking turns
 * (A B, then B A in the next round) so that neither gets the quieter minute. For a change to the
 * read path whose cost is a few per cent, which two separate runs of `npm run bench` cannot show.
 *
 *   npm run bench:store-ab -- --versus ../other-checkout                 # PGlite
 *   DATABASE_URL=postgres://… npm run bench:store-ab -- --versus ../other # PGlite, then PostgreSQL
 *   npm run bench:store-ab -- --versus ../other --rounds 6 --seconds 5 --products 1000
 *
 * The other checkout needs its own compiled server (`npm run build:server` there). Reports per
 * load the median req/s, server CPU per request and p99 of each server, and the ratio of this
 * checkout's req/s to the other's.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { load } from './client.ts';
import {
  ADMIN,
  closeAgent,
  cpuMsOf,
  freshBenchDatabase,
  loadAverage,
  publishableKeyOf,
  type Server,
  startServer,
  untilIdle,
  waitFor200,
} from './lib.ts';
import { percentile } from './measure.ts';
import { seedProducts, seedShop } from './seed.ts';

const USAGE = 'npm run bench:store-ab -- --versus <checkout> [--products 1000] [--rounds 4] [--seconds 5]';
const { values: v } = parseArgs({
  options: {
    versus: { type: 'string' },
    products: { type: 'string', default: '1000' },
    rounds: { type: 'string', default: '4' },
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '10' },
    port: { type: 'string', default: '9310' },
  },
});
if (!v.versus) throw new Error(USAGE);
const VERSUS = path.resolve(v.versus);
const PRODUCTS = Number(v.products);
const ROUNDS = Number(v.rounds);
const opts = { connections: Number(v.connections), seconds: Number(v.seconds) };

interface Side {
  name: string;
  server: Server;
  base: string;
  store: Record<string, string>;
  urls: Record<string, string>;
}

/** One server started like a user's and given the products through the API. */
async function side(name: string, root: string | undefined, port: number, databaseUrl: string): Promise<Side> {
  const env = {
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'emporium-store-ab-')),
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    DATABASE_URL: databaseUrl,
  };
  const base = `http://127.0.0.1:${port}`;
  const server = startServer(port, env, { root });
  await waitFor200(`${base}/health`, performance.now(), { server });
  const store = { 'x-publishable-api-key': await publishableKeyOf(server) };
  const shop = await seedShop(base);
  const ids = await seedProducts(base, shop, 1, PRODUCTS);
  const list = `${base}/store/products?limit=20`;
  const urls = {
    'store list (limit=20)': list,
    'store list with region_id': `${list}&region_id=${shop.regionId}`,
    'product by id': `${base}/store/products/${ids[Math.floor(ids.length / 2)]}`,
  };
  // Warm: the answers kept, the code optimized.
  for (const url of Object.values(urls)) await load(url, store, { connections: opts.connections, amount: 2000 });
  return { name, server, base, store, urls };
}

async function compare(kind: string, databaseUrls: [string, string]) {
  console.error(`[${kind}] starting both servers and creating ${PRODUCTS} products in each`);
  const port = Number(v.port);
  const sides = [
    await side('this checkout', undefined, port, databaseUrls[0]),
    await side(`versus ${path.basename(VERSUS)}`, VERSUS, port + 1, databaseUrls[1]),
  ];
  try {
    const got = new Map<string, { rps: number[]; p99: number[]; cpu: number[] }>();
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? sides : [...sides].reverse();
      for (const name of Object.keys(sides[0].urls)) {
        for (const s of order) {
          await untilIdle(s.server.pid());
          const cpuBefore = cpuMsOf(s.server.pid());
          const r = await load(s.urls[name], s.store, opts);
          // The server's CPU per request: steadier than req/s on a machine shared with the load generator.
          const cpuUs = ((cpuMsOf(s.server.pid()) - cpuBefore) * 1000) / (r['req/s'] * opts.seconds);
          const key = `${name}\n${s.name}`;
          const seen = got.get(key) ?? { rps: [], p99: [], cpu: [] };
          seen.rps.push(r['req/s']);
          seen.p99.push(r['p99 ms']);
          seen.cpu.push(cpuUs);
          got.set(key, seen);
        }
      }
    }
    const median = (xs: number[]) =>
      percentile(
        [...xs].sort((a, b) => a - b),
        50,
      );
    const rows = Object.keys(sides[0].urls).map((name) => {
      const [a, b] = sides.map((s) => got.get(`${name}\n${s.name}`)!);
      return {
        load: name,
        [`${sides[0].name} req/s`]: Math.round(median(a.rps)),
        [`${sides[1].name} req/s`]: Math.round(median(b.rps)),
        ratio: +(median(a.rps) / median(b.rps)).toFixed(3),
        [`${sides[0].name} cpu µs/req`]: +median(a.cpu).toFixed(1),
        [`${sides[1].name} cpu µs/req`]: +median(b.cpu).toFixed(1),
        [`${sides[0].name} p99 ms`]: median(a.p99),
        [`${sides[1].name} p99 ms`]: median(b.p99),
        'all req/s (this | versus)': `${a.rps.join(' ')} | ${b.rps.join(' ')}`,
      };
    });
    console.log(`\n${kind}: ${ROUNDS} rounds × ${opts.seconds} s per load, load average ${loadAverage()}`);
    console.table(rows);
  } finally {
    for (const s of sides) await s.server.stop();
  }
}

try {
  await compare('pglite', ['', '']);
  if (process.env.DATABASE_URL) {
    const a = await freshBenchDatabase('emporium_store_ab_a');
    const b = await freshBenchDatabase('emporium_store_ab_b');
    await compare('postgres', [a!, b!]);
  }
} finally {
  closeAgent();
}
