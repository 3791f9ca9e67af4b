import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  ADMIN,
  call,
  freshBenchDatabase,
  loadAverage,
  publishableKeyOf,
  rssMiB,
  type Server,
  STARTS,
  startServer,
  untilIdle,
  waitFor200,
} from './lib.ts';
import { type Load, load } from './client.ts';
import { checkoutSequential, median, referenceLoad, sequentialMisses } from './measure.ts';
import { seedProducts, seedShop, uniqueCode } from './seed.ts';

export interface Options {
  products: number;
  seconds: number;
  connections: number;
  flows: number;
  waitSeconds: number;
  quick: boolean;
  searchProducts: number;
  port: number;
}

/** One measurement of the request figures (taken right after seeding, and again after the wait). */
export interface RequestFigures {
  list: Load;
  reference: Load;
  byId: Load;
  region: Load;
  /** The bare route again, with the region list's larger body (calculated prices): what bytes alone cost. */
  regionReference: Load;
  /**
   * The region list's req/s over the plain list's, from four loads of half the time in the order
   * plain, region, region, plain: a machine whose speed drifts during the set (the bare route's own
   * figures moved by 10-40 % between one minute and the next on the same body) shifts both sides alike.
   */
  regionRatio: number;
  /** Bytes of the plain list's body and of the region list's. */
  bodyBytes: [number, number];
  checkout: { 'median ms': number; 'p95 ms': number };
  load: string;
}

export interface BackendResult {
  kind: 'pglite' | 'postgres';
  firstStartMs: number;
  seedSeconds: number;
  startMs: number;
  /** The one restart right after seeding (not counted in startMs: the database is still busy then). */
  startAfterSeedingMs: number;
  /** The same start script run by the shell, without npm. */
  directStartMs: number;
  firstListMs: number;
  rssAfter2000: number;
  sets: { label: string; figures: RequestFigures }[];
  search?: {
    products: number;
    selective: Load;
    broad: Load;
    /** Every request a page of its own (`offset`), so the answer cache never serves it. */
    selectiveMiss: { 'p50 ms': number };
    broadMiss: { 'p50 ms': number };
  };
}

/**
 * The whole set on one backend: first start on an empty data dir, seeding through the admin API,
 * a restart on the now existing data, then the request figures right away and after the wait.
 */
export async function benchBackend(kind: 'pglite' | 'postgres', o: Options): Promise<BackendResult> {
  const databaseUrl = kind === 'postgres' ? await freshBenchDatabase('emporium_bench') : undefined;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'emporium-bench-'));
  const env = {
    DATA_DIR: dataDir,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    DATABASE_URL: databaseUrl ?? '',
  };
  const base = `http://127.0.0.1:${o.port}`;
  let server: Server | undefined;
  const start = async () => {
    const t0 = performance.now();
    server = startServer(o.port, env);
    return waitFor200(`${base}/health`, t0, { server });
  };
  try {
    console.error(`[${kind}] first start on an empty data dir`);
    const firstStartMs = await start();
    const key = await publishableKeyOf(server!);
    const store = { 'x-publishable-api-key': key };

    console.error(`[${kind}] creating ${o.products} products through POST /admin/products/batch`);
    const seedStart = performance.now();
    const shop = await seedShop(base);
    const ids = await seedProducts(base, shop, 1, o.products, { every: 250 });
    const seedSeconds = (performance.now() - seedStart) / 1000;

    console.error(`[${kind}] restart on the existing data`);
    await server!.stop();
    const restarted = performance.now();
    const startAfterSeedingMs = await start();
    const firstListMs = await waitFor200(`${base}/store/products?limit=20`, restarted, { headers: store });

    const list = `${base}/store/products?limit=20`;
    await load(list, store, { connections: o.connections, amount: 2000 });
    const rssAfter2000 = rssMiB(server!.pid());

    const { json } = await call(base, 'GET', `/store/products/${ids[0]}`, store);
    const variantIds: string[] = json.product.variants.map((v: { id: string }) => v.id);
    const figures = async (): Promise<RequestFigures> => {
      const regionList = `${list}&region_id=${shop.regionId}`;
      const bytes = async (url: string) => {
        const res = await fetch(url, { headers: store });
        return Buffer.from(await res.arrayBuffer());
      };
      const body = await bytes(list);
      const regionBody = await bytes(regionList);
      const opts = { connections: o.connections, seconds: o.seconds };
      const mid = ids[Math.floor(ids.length / 2)];
      // The references run while the server is idle, so neither takes a core from the other.
      const reference = async (b: Buffer) => untilIdle(server!.pid()).then(() => referenceLoad(b, o.port + 1, opts));
      const half = { ...opts, seconds: Math.max(1, Math.round(o.seconds / 2)) };
      const abba = async () => {
        const [a1, b1, b2, a2] = [
          await load(list, store, half),
          await load(regionList, store, half),
          await load(regionList, store, half),
          await load(list, store, half),
        ];
        return (b1['req/s'] + b2['req/s']) / (a1['req/s'] + a2['req/s']);
      };
      return {
        regionRatio: await abba(),
        list: await load(list, store, opts),
        reference: await reference(body),
        byId: await load(`${base}/store/products/${mid}`, store, opts),
        region: await load(regionList, store, opts),
        regionReference: await reference(regionBody),
        bodyBytes: [body.length, regionBody.length],
        checkout: await checkoutSequential(base, key, variantIds, o.flows),
        load: loadAverage(),
      };
    };
    const sets = [{ label: 'after seeding', figures: await figures() }];
    if (!o.quick) {
      console.error(`[${kind}] running ${o.waitSeconds} s before measuring again`);
      await new Promise((r) => setTimeout(r, o.waitSeconds * 1000));
      sets.push({ label: `after ${Math.round(o.waitSeconds / 60)} min`, figures: await figures() });
    }

    // The counted starts come last, `npm start` and the same script run by the shell taking turns, so
    // the two are compared at the same moment: right after seeding the database is still writing back
    // what seeding changed (a start then read 25-75 ms slower than the counted ones in the ninth
    // session's runs), and this machine's speed drifts from one minute to the next.
    console.error(
      `[${kind}] restarts: npm start, then the start script run by the shell, ${STARTS} times each in turn`,
    );
    const starts: number[] = [];
    const directStarts: number[] = [];
    for (let i = 0; i < STARTS; i++) {
      await server!.stop();
      starts.push(await start());
      await server!.stop();
      const direct = performance.now();
      server = startServer(o.port, env, { direct: true });
      directStarts.push(await waitFor200(`${base}/health`, direct, { server }));
    }
    const startMs = median(starts);
    const directStartMs = median(directStarts);

    let search: BackendResult['search'];
    if (o.searchProducts > o.products) {
      console.error(`[${kind}] creating products up to ${o.searchProducts} for the q search`);
      await seedProducts(base, shop, o.products + 1, o.searchProducts, { every: 5000 });
      const one = { connections: 1, seconds: o.seconds };
      const selectiveTerm = uniqueCode(Math.floor(o.searchProducts / 3));
      // The selective term matches one product: a miss needs a term of its own per request.
      const miss = (i: number) => `/store/products?limit=20&q=${uniqueCode(Math.floor(o.searchProducts / 3) + i)}`;
      const broadMiss = (i: number) => `/store/products?limit=20&q=linen&offset=${20 * i}`;
      search = {
        products: o.searchProducts,
        selective: await load(`${list}&q=${selectiveTerm}`, store, one),
        broad: await load(`${list}&q=linen`, store, one),
        selectiveMiss: await sequentialMisses(base, miss, store, 200),
        broadMiss: await sequentialMisses(base, broadMiss, store, 200),
      };
    }
    return {
      kind,
      firstStartMs,
      seedSeconds,
      startMs,
      startAfterSeedingMs,
      directStartMs,
      firstListMs,
      rssAfter2000,
      sets,
      search,
    };
  } finally {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
