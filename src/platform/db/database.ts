import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import type { SQL } from 'drizzle-orm';
import type { Pool } from 'pg';
import { lockDataDir } from './data-dir-lock.ts';
import { copyPgliteTemplate, discardPgliteCopy } from './pglite-template.ts';
import { PACKAGE_ROOT } from '../package-root.ts';
import { DEFAULT_PGLITE_SHARED_BUFFERS } from '../config.ts';
import { sharedHandle, type Handle } from './handle.ts';
import { analyzeStaleTables } from './statistics.ts';
import { migrationsCurrent } from './migrations.ts';
import { PgListener } from './pg-listener.ts';
import { ReadReplicas, replicaCannotAnswer, type ReplicaOptions } from './replicas.ts';

/**
 * The database handle. Modules reach their tables through their own `tables.ts` (query builder)
 * or SQL, so the handle knows no table; drizzle-kit finds every table by drizzle.config.ts.
 */
export type Db = Handle;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** The root handle or a transaction: query functions accept either. */
export type Executor = Db | Tx;

/** The driver under drizzle, for what drizzle's SQL cannot carry (text with `$1…`, a lock held on one connection). */
export type RawClient = { kind: 'pglite'; pglite: PGlite } | { kind: 'postgres'; pool: Pool };

export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  raw: RawClient;
  /**
   * Applies migrations/ (the same SQL on both backends); each file runs once, and a database that
   * has them all is told by one query (migrations.ts). After applying any, analyzes the tables
   * whose statistics are missing or stale (statistics.ts), so plans are right from the start; on
   * every other start the workers' statistics pass does that once the server listens.
   */
  migrate(): Promise<void>;
  /**
   * LISTEN on a channel (NOTIFY is sent with `pg_notify` inside transactions, delivered at commit).
   * On PostgreSQL this reaches every instance; on PGlite, this process. Returns the unlisten function.
   * `onLost` (PostgreSQL): the listening connection dropped; NOTIFYs may be missed until it is back.
   */
  listen(channel: string, onNotify: (payload: string) => void, onLost?: () => void): Promise<() => Promise<void>>;
  /**
   * PostgreSQL: `handler` gets the message of every NOTICE a query of this process is answered
   * with (a trigger's RAISE NOTICE arrives before its statement's, or COMMIT's, answer). Returns
   * the function that stops it.
   */
  onNotice?(handler: (message: string) => void): () => void;
  /**
   * PostgreSQL: runs a short statement on the connection that listens (idle between NOTIFYs), so
   * it never waits behind the pool's busy connections: the store catalog lease's renewal, which,
   * queued behind a busy pool under load, came back after its lease ran out. Fails while that
   * connection is down.
   */
  besideListener?(query: SQL): Promise<void>;
  close(): Promise<void>;
  /**
   * Runs `fn` while holding a cluster-wide lock (a PostgreSQL advisory lock; PGlite has one
   * process anyway), so first-start setup of instances started together runs one at a time.
   */
  exclusive<T>(fn: () => Promise<T>): Promise<T>;
  /** Embedded database only: a consistent gzip tarball of the data dir, taken between two queries. */
  dump?(): Promise<Uint8Array>;
  /** PostgreSQL with DATABASE_READ_URL: the read replicas (replicas.ts; routing in http/read-routing.ts). */
  replicas?: ReadReplicas<Db>;
}

export const MIGRATIONS_DIR = path.join(PACKAGE_ROOT, 'migrations');

/**
 * Runs raw SQL and returns its rows, of the shape the caller states (raw SQL has no other source
 * for it; reads across modules name their columns through the tables instead: typed-sql.ts).
 */
export async function rows<T>(exec: Executor, query: SQL): Promise<T[]> {
  return (await exec.execute(query)).rows as T[];
}

export interface PgliteOptions {
  /** A tarball of `dump()` to create the (empty) data dir from. */
  restoreFrom?: Blob;
  /** PostgreSQL's `shared_buffers` (e.g. `8MB`); PGLITE_SHARED_BUFFERS. */
  sharedBuffers?: string;
  /** Create a missing database with initdb even when a template (pglite-template.ts) exists. */
  noTemplate?: boolean;
  /** Another migrations folder (tests). */
  migrationsDir?: string;
}

export async function openPglite(dataDir: string | null, opts: PgliteOptions = {}): Promise<Database> {
  // PGlite's files, named here rather than found by PGlite next to its own code: the server bundle
  // (dist/server.cjs) holds PGlite's JavaScript, so it loads from V8's code cache with the rest.
  // Its wasm is read and its compile started here, before the caller goes on to load the app's
  // code: V8 compiles it on a background thread meanwhile (PGlite would only begin once its code
  // has loaded and its file system is set up). Read synchronously (~5 ms for both files from the
  // page cache): fs/promises reads in 512 KiB chunks, one event-loop turn each, and the turns
  // wait for the app's code to finish loading, so the compile used to start only then and the
  // thread sat idle ~35 ms waiting for it (a --cpu-prof of a start).
  const pgliteDir = path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  const pgliteWasmModule = WebAssembly.compile(readFileSync(path.join(pgliteDir, 'pglite.wasm')));
  pgliteWasmModule.catch(() => {}); // awaited below; this only keeps an early failure from going unhandled
  // As PGlite reads it itself: one copy in memory, handed over (a Blob would make two more).
  const bundleBytes = readFileSync(path.join(pgliteDir, 'pglite.data'));
  const fsBundle = { arrayBuffer: async () => bundleBytes.buffer } as Blob;
  const [{ PGlite }, { drizzle }] = await Promise.all([import('@electric-sql/pglite'), import('drizzle-orm/pglite')]);
  const pg_trgm = {
    name: 'pg_trgm',
    setup: async () => ({ bundlePath: pathToFileURL(path.join(pgliteDir, 'pg_trgm.tar.gz')) }),
  };
  const unlock = dataDir ? lockDataDir(dataDir) : () => {};
  try {
    const pgDir = dataDir ? path.join(dataDir, 'pglite') : undefined;
    // A database that is not there yet is made by PostgreSQL's initdb, a wasm of its own.
    const initdbWasmModule = async () =>
      opts.restoreFrom || (pgDir && existsSync(path.join(pgDir, 'PG_VERSION')))
        ? undefined
        : WebAssembly.compile(await readFile(path.join(pgliteDir, 'initdb.wasm')));
    const create = async () =>
      PGlite.create(pgDir, {
        pgliteWasmModule: await pgliteWasmModule,
        initdbWasmModule: await initdbWasmModule(),
        fsBundle,
        extensions: { pg_trgm },
        loadDataDir: opts.restoreFrom,
        // One session in one process: a handful of connection slots is plenty (each costs shared memory).
        startParams: [
          ...PGlite.defaultStartParams,
          ...['-c', `shared_buffers=${opts.sharedBuffers ?? DEFAULT_PGLITE_SHARED_BUFFERS}`],
          ...['-c', 'max_connections=10'],
        ],
      });
    const fromTemplate = !!pgDir && !opts.restoreFrom && !opts.noTemplate && copyPgliteTemplate(pgDir);
    const client = await create().catch((err) => {
      if (!fromTemplate) throw err;
      discardPgliteCopy(pgDir);
      return create();
    });
    const pglite = drizzle(client);
    const db = sharedHandle(pglite);
    return {
      kind: 'pglite',
      db,
      raw: { kind: 'pglite', pglite: client },
      async migrate() {
        const migrationsFolder = opts.migrationsDir ?? MIGRATIONS_DIR;
        if (!(await migrationsCurrent(db, migrationsFolder))) {
          const { migrate } = await import('drizzle-orm/pglite/migrator');
          await migrate(pglite, { migrationsFolder });
          await analyzeStaleTables(db);
        }
      },
      async listen(channel, onNotify) {
        const unlisten = await client.listen(channel, onNotify);
        return async () => {
          await unlisten();
        };
      },
      exclusive: (fn) => fn(),
      async dump() {
        return new Uint8Array(await (await client.dumpDataDir('gzip')).arrayBuffer());
      },
      async close() {
        await client.close();
        unlock();
      },
    };
  } catch (err) {
    unlock();
    throw err;
  }
}

/** `connectTimeoutMs`: a query waiting longer for a connection fails (503 to the client) instead of hanging. */
export async function openPostgres(
  url: string,
  poolSize = 10,
  connectTimeoutMs = 3_000,
  opts: Pick<PgliteOptions, 'migrationsDir'> & { readUrls?: string[]; replicas?: ReplicaOptions } = {},
): Promise<Database> {
  const pg = await import('pg');
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const dialect = new (await import('drizzle-orm/pg-core')).PgDialect();
  // int8 (counts, bigint amounts) as numbers, as PGlite returns them; amounts stay far below 2^53.
  pg.default.types.setTypeParser(20, (v: string) => Number(v));
  const pool = new pg.default.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: connectTimeoutMs });
  pool.on('error', () => {}); // an idle client dropped by the server must not crash the process
  const noticeHandlers = new Set<(message: string) => void>();
  pool.on('connect', (client) => {
    // Nor one that is checked out (inside a transaction, a plugin's connection) when the server goes
    // away: its query fails on its own and the pool drops the client; the 'error' event needs a listener.
    client.on('error', () => {});
    client.on('notice', (notice) => {
      for (const handler of noticeHandlers) handler(notice.message ?? '');
    });
  });
  // The first connection is made while the app's code loads: migrating starts without waiting for it.
  pool.connect().then(
    (client) => client.release(),
    () => {}, // a server that is down is reported by the first query (migrate)
  );
  const db = sharedHandle(drizzle(pool));
  const listener = new PgListener(pg.default.Client, url);
  const replicas = opts.readUrls?.length
    ? new ReadReplicas<Db>(
        opts.readUrls,
        // The insert position, not pg_current_wal_lsn() (the write position): a transaction committed
        // with synchronous_commit = off is visible (and its NOTIFY heard) before its WAL is written,
        // and a replica caught up to the write position may not have it yet.
        async () =>
          ((await pool.query('select pg_current_wal_insert_lsn()::text as lsn')) as { rows: { lsn: string }[] }).rows[0]
            .lsn,
        (replicaUrl, fallback) => {
          // A pool whose reads fall back to the primary's when the replica cannot answer (replicas.ts).
          class ReplicaPool extends pg.default.Pool {
            // biome-ignore lint/suspicious/noExplicitAny: pg's overloads; drizzle calls the promise forms
            override query(...args: any[]): any {
              const own = Reflect.apply(super.query, this, args);
              if (typeof args[args.length - 1] === 'function') return own;
              return own.catch((err: unknown) => {
                if (!replicaCannotAnswer(err)) throw err;
                fallback();
                return Reflect.apply(pool.query, pool, args);
              });
            }
            // biome-ignore lint/suspicious/noExplicitAny: as above
            override connect(...args: any[]): any {
              if (args.length) return Reflect.apply(super.connect, this, args);
              return super.connect().catch((err: unknown) => {
                if (!replicaCannotAnswer(err)) throw err;
                fallback();
                return pool.connect();
              });
            }
          }
          const replicaPool = new ReplicaPool({
            connectionString: replicaUrl,
            max: poolSize,
            connectionTimeoutMillis: 1_000,
            query_timeout: 10_000,
          });
          replicaPool.on('error', () => {});
          replicaPool.on('connect', (client) => client.on('error', () => {}));
          return { pool: replicaPool, db: sharedHandle(drizzle(replicaPool)) };
        },
        opts.replicas ?? { maxLagMs: 1_000 },
      )
    : undefined;
  replicas?.start();
  return {
    kind: 'postgres',
    db,
    raw: { kind: 'postgres', pool },
    // Several instances may start at once: a session advisory lock on one dedicated client serialises
    // them (the migrator tests again under the lock, so one that finds a newer database applies nothing).
    async migrate() {
      const migrationsFolder = opts.migrationsDir ?? MIGRATIONS_DIR;
      if (!(await migrationsCurrent(db, migrationsFolder))) {
        const { migrate } = await import('drizzle-orm/node-postgres/migrator');
        const client = await pool.connect();
        try {
          await client.query('select pg_advisory_lock(7300001)');
          await migrate(drizzle(client), { migrationsFolder });
        } finally {
          await client.query('select pg_advisory_unlock(7300001)').catch(() => {});
          client.release();
        }
        await analyzeStaleTables(db);
      }
    },
    // Advisory keys: 7300001 migrations, 7300002 the default store key (api-keys/defaults.ts), 7300003 this,
    // 7300004 the statistics pass (statistics.ts), 7300005 the store documents' rebuild (products/store-documents.ts).
    async exclusive(fn) {
      const client = await pool.connect();
      try {
        await client.query('select pg_advisory_lock(7300003)');
        return await fn();
      } finally {
        await client.query('select pg_advisory_unlock(7300003)').catch(() => {});
        client.release();
      }
    },
    listen: (channel, onNotify, onLost) => listener.listen(channel, onNotify, onLost),
    besideListener: (query) => {
      const { sql: text, params } = dialect.sqlToQuery(query);
      return listener.run(text, params);
    },
    onNotice: (handler) => {
      noticeHandlers.add(handler);
      return () => noticeHandlers.delete(handler);
    },
    replicas,
    async close() {
      await replicas?.close();
      await listener.close();
      await pool.end();
    },
  };
}

export function openDatabase(opts: {
  databaseUrl?: string;
  dataDir: string | null;
  connectTimeoutMs?: number;
  pgliteSharedBuffers?: string;
  /** DATABASE_READ_URL (PostgreSQL only; the embedded database says it ignores them). */
  readUrls?: string[];
  replicas?: ReplicaOptions;
}): Promise<Database> {
  if (!opts.databaseUrl && opts.readUrls?.length)
    opts.replicas?.log?.warn({}, 'DATABASE_READ_URL is ignored on the embedded database (PGlite): set DATABASE_URL');
  return opts.databaseUrl
    ? openPostgres(opts.databaseUrl, 10, opts.connectTimeoutMs, { readUrls: opts.readUrls, replicas: opts.replicas })
    : openPglite(opts.dataDir, { sharedBuffers: opts.pgliteSharedBuffers });
}
