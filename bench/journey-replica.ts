import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { newStandby } from '../test/hot-standby.ts';
import { journey, Timings } from './journey-calls.ts';
import { adminLogin, discover, prepareEmporium, publishableKey } from './journey-data.ts';
import { merge, PASSWORD, type Row, report, run, runFigures } from './journey-rounds.ts';
import { ADMIN, cpuMsOf, loadAverage, rssMiB, type Server, startServer, waitFor200 } from './lib.ts';

/**
 * `npm run bench:journey -- --replica`: what one read replica (DATABASE_READ_URL,
 * docs/configuration.md) changes for the journey, on a cluster of the bench's own: a throwaway
 * primary and a hot standby of it (test/hot-standby.ts, as test/multi/read-replicas.test.ts
 * makes it), stopped and removed at the end, on failure and on Ctrl-C.
 *
 * The shop is seeded on the primary through the API (journey-data.ts). Then, per shopper count,
 * `rounds` times: the same build (dist/) started with the primary only (`primary`), then with
 * DATABASE_READ_URL at the standby too (`replica`, measured once /ready has it in rotation), each
 * for seconds / rounds after one warm-up journey. Every turn is a fresh start, so the databases'
 * counters read before the start and after the stop are that turn's alone (a backend reports its
 * counters at the latest when it ends): where the reads went is counted, not assumed.
 */

const DATABASE = 'shop';

export interface ReplicaBench {
  port: number;
  products: number;
  categories: number;
  seedMode: 'batch' | 'import';
  seedConcurrency: number;
  shoppers: number[];
  seconds: number;
  rounds: number;
  writeResult(name: string, body: Record<string, unknown>): void;
}

/** What one database served: transactions and table scans (sequential and index). */
interface Served {
  xacts: number;
  scans: number;
}
interface Counters {
  primary: Served;
  standby: Served;
}

/** The `replica` server's /ready during its turns: lag samples each second, the last at the end of the last turn. */
interface LagSeen {
  samples: number;
  maxMs: number;
  outOfRotation: number;
  last?: { lag_ms: number | null; in_rotation: boolean };
}

export async function measureReplica(o: ReplicaBench): Promise<void> {
  console.error('[journey] --replica: a primary and a hot standby of the bench’s own (initdb, pg_basebackup -R)');
  const cluster = newStandby({
    database: DATABASE,
    settings: ['shared_buffers = 128MB', 'max_connections = 100'],
  });
  const dataDir = mkdtempSync(path.join(tmpdir(), 'emporium-bench-journey-replica-'));
  let server: Server | undefined;
  const clients: pg.Client[] = [];
  // The server (its own process group) and PostgreSQL (pg_ctl detaches it) do not get the
  // terminal's Ctrl-C: this ends them, set up from before the cluster's first step on.
  // tsx kills its child ~60 ms after a Ctrl-C it relays, so this only signals and removes a small
  // folder: the cluster's own folder goes in a detached shell (test/hot-standby.ts).
  const onSignal = (signal: NodeJS.Signals) => {
    try {
      if (server?.proc.exitCode === null) process.kill(-server.proc.pid!, 'SIGKILL');
    } catch {}
    cluster.stop();
    try {
      rmSync(dataDir, { recursive: true, force: true });
    } catch {}
    console.error(`[journey] ${signal}: the server and the cluster stopped`);
    process.exit(130);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    await cluster.start();
    const base = `http://127.0.0.1:${o.port}`;
    const start = async (withReplica: boolean): Promise<Server> => {
      server = startServer(o.port, {
        DATABASE_URL: cluster.primaryUrl(DATABASE),
        DATABASE_READ_URL: withReplica ? cluster.replicaUrl(DATABASE) : '',
        DATA_DIR: dataDir,
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
        // A storefront server calls for every shopper from one address (docs/storefront.md).
        RATE_LIMIT_TRUSTED_IPS: '127.0.0.1',
      });
      await waitFor200(`${base}/health`, performance.now(), { server });
      if (withReplica) await untilInRotation(base);
      return server;
    };
    const stop = async () => {
      await server?.stop();
      server = undefined;
    };

    const seedStart = performance.now();
    await start(false);
    const admin = await adminLogin(base, ADMIN.email, ADMIN.password);
    const key = await publishableKey(base, admin);
    console.error(`[journey] ${o.products} products in ${o.categories} categories (${o.seedMode}), on the primary`);
    await prepareEmporium(base, admin, key, {
      products: o.products,
      categories: o.categories,
      mode: o.seedMode,
      concurrency: o.seedConcurrency,
    });
    const shop = await discover(base, key);
    await stop();
    console.error(`[journey] prepared in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);

    const primary = await connect(cluster.primaryUrl(DATABASE), clients);
    const standby = await connect(cluster.replicaUrl(DATABASE), clients);
    const counters = async (): Promise<Counters> => ({
      primary: await served(primary),
      standby: await served(standby),
    });
    const rows: Row[] = [];
    const reads = new Map<string, Counters>();
    const lag: LagSeen = { samples: 0, maxMs: 0, outOfRotation: 0 };
    // Sign-ups are numbered across both systems: they share the database.
    let next = 0;
    for (const shoppers of o.shoppers) {
      const turns: Row[] = [];
      for (let round = 0; round < o.rounds; round++) {
        for (const system of ['primary', 'replica'] as const) {
          const before = await counters();
          const s = await start(system === 'replica');
          const target = { name: system, shop, next, cpu: () => cpuMsOf(s.pid()), rss: () => rssMiB(s.pid()) };
          await journey(shop, target.next++, new Timings(), PASSWORD);
          const sampling = system === 'replica' ? sampleLag(base, lag) : undefined;
          turns.push(await run(target, shoppers, o.seconds / o.rounds));
          await sampling?.stop();
          next = target.next;
          await stop();
          await untilDisconnected([primary, standby]);
          add(reads, `${system} ×${shoppers}`, combine(await counters(), before, -1));
        }
      }
      for (const system of ['primary', 'replica']) rows.push(merge(turns.filter((r) => r.system === system)));
      console.error(`[journey] ${shoppers} shoppers done; load ${loadAverage()}`);
    }
    report(rows);
    console.table(throughput(rows));
    console.table(whereReadsWent(rows, reads));
    console.error(
      `[journey] the replica's lag (/ready, each second of the replica turns): max ${lag.maxMs} ms over ` +
        `${lag.samples} samples, ${lag.outOfRotation} out of rotation; at the end ${JSON.stringify(lag.last ?? null)}`,
    );
    o.writeResult(`journey-replica-${o.products}-products`, {
      kind: 'journey-replica',
      database: 'postgres',
      products: o.products,
      categories: o.categories,
      replicas: 1,
      lag: { max_ms: lag.maxMs, samples: lag.samples, out_of_rotation: lag.outOfRotation, at_end: lag.last },
      runs: rows.map((r) => ({
        ...runFigures(r),
        server_cpu_ms_per_journey: r.cpuMs === undefined ? null : +(r.cpuMs / Math.max(1, r.journeys)).toFixed(1),
        reads: reads.get(`${r.system} ×${r.shoppers}`),
      })),
    });
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    for (const c of clients) await c.end().catch(() => {});
    await server?.stop();
    cluster.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Per shopper count: both systems' journeys/s and their ratio. */
function throughput(rows: Row[]) {
  const perSecond = (system: string, n: number) => {
    const r = rows.find((row) => row.shoppers === n && row.system === system);
    return r ? r.journeys / r.seconds : Number.NaN;
  };
  return [...new Set(rows.map((r) => r.shoppers))].map((n) => ({
    shoppers: n,
    'primary only j/s': +perSecond('primary', n).toFixed(2),
    'with replica j/s': +perSecond('replica', n).toFixed(2),
    'ratio (replica / primary only)': +(perSecond('replica', n) / perSecond('primary', n)).toFixed(2),
  }));
}

/**
 * Per system and shopper count: what each database served over the turns' server lives (start,
 * warm-up journey, run), per journey. Scans count every index scan started, a nested loop's
 * inner ones included, so the share weighs heavy reads more than light ones.
 */
function whereReadsWent(rows: Row[], reads: Map<string, Counters>) {
  return rows.map((r) => {
    const c = reads.get(`${r.system} ×${r.shoppers}`);
    const each = (n: number | undefined) => (n === undefined ? '–' : +(n / Math.max(1, r.journeys)).toFixed(1));
    return {
      'system ×shoppers': `${r.system} ×${r.shoppers}`,
      journeys: r.journeys,
      'primary xacts/journey': each(c?.primary.xacts),
      'primary scans/journey': each(c?.primary.scans),
      'standby xacts/journey': each(c?.standby.xacts),
      'standby scans/journey': each(c?.standby.scans),
      'standby share of scans': c
        ? `${((100 * c.standby.scans) / Math.max(1, c.standby.scans + c.primary.scans)).toFixed(1)} %`
        : '–',
    };
  });
}

async function connect(url: string, clients: pg.Client[]): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, application_name: 'journey-bench-counters' });
  client.on('error', () => {});
  await client.connect();
  clients.push(client);
  return client;
}

/** The database's transactions committed and its tables' scans so far (each statement its own snapshot). */
async function served(client: pg.Client): Promise<Served> {
  const xacts = await client.query(
    'select xact_commit::float8 as n from pg_stat_database where datname = current_database()',
  );
  const scans = await client.query(
    'select coalesce(sum(coalesce(seq_scan, 0) + coalesce(idx_scan, 0)), 0)::float8 as n from pg_stat_user_tables',
  );
  return { xacts: xacts.rows[0].n, scans: scans.rows[0].n };
}

/** `a` plus `sign` times `b`, database by database. */
function combine(a: Counters, b: Counters, sign: 1 | -1): Counters {
  const one = (x: Served, y: Served) => ({ xacts: x.xacts + sign * y.xacts, scans: x.scans + sign * y.scans });
  return { primary: one(a.primary, b.primary), standby: one(a.standby, b.standby) };
}

/** A turn's counters added to its system and shopper count's. */
function add(into: Map<string, Counters>, key: string, turn: Counters): void {
  const had = into.get(key);
  into.set(key, had ? combine(had, turn, 1) : turn);
}

/**
 * Until no backend of the stopped server is left on either database: a backend reports its
 * counters before it leaves pg_stat_activity, so the counters read next are complete.
 */
async function untilDisconnected(clients: pg.Client[]): Promise<void> {
  const deadline = performance.now() + 30_000;
  for (const client of clients) {
    for (;;) {
      const { rows } = await client.query(
        `select count(*)::int as n from pg_stat_activity
          where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`,
      );
      if (rows[0].n === 0) break;
      if (performance.now() > deadline) throw new Error(`${rows[0].n} backends still connected after the stop`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}

type ReadyBody = { replicas?: { lag_ms: number | null; in_rotation: boolean }[] };
const readyReplica = async (base: string) => {
  const res = await fetch(`${base}/ready`);
  return ((await res.json()) as ReadyBody).replicas?.[0];
};

async function untilInRotation(base: string): Promise<void> {
  const deadline = performance.now() + 30_000;
  while (!(await readyReplica(base).catch(() => undefined))?.in_rotation) {
    if (performance.now() > deadline) throw new Error('the replica did not come into rotation within 30 s');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** /ready each second until `stop()`, which takes one last sample. */
function sampleLag(base: string, into: LagSeen) {
  const sample = async () => {
    const r = await readyReplica(base).catch(() => undefined);
    if (!r) return;
    into.samples++;
    into.maxMs = Math.max(into.maxMs, r.lag_ms ?? 0);
    if (!r.in_rotation) into.outOfRotation++;
    into.last = { lag_ms: r.lag_ms, in_rotation: r.in_rotation };
  };
  const timer = setInterval(sample, 1000);
  return {
    async stop() {
      clearInterval(timer);
      await sample();
    },
  };
}
