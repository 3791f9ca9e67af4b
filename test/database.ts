import pg from 'pg';
import { sql } from 'drizzle-orm';
import { openPglite, openPostgres, rows, type Database } from '../src/platform/db/database.ts';

/**
 * One database per test worker, migrated once, reset between test files.
 * Without DATABASE_URL: an in-memory PGlite (slow to create, so shared).
 * With DATABASE_URL: a fresh database `<name>_w<worker>` on that server, so workers never collide.
 */
let shared: Promise<Database> | undefined;

export function testDatabase(): Promise<Database> {
  shared ??= (async () => {
    const url = process.env.DATABASE_URL;
    // A pool wait of 30 s (production's default is 3 s, DATABASE_CONNECT_TIMEOUT_MS): the 200-way
    // checkout races queue every request for one of 20 connections while the winners hold a row
    // lock, and on a loaded 2-core machine the queue drains in 10 s or more. Bounded all the same,
    // so a leaked connection still fails a test instead of hanging it.
    const database = url ? await openPostgres(await freshWorkerDatabase(url), 20, 30_000) : await openPglite(null);
    await database.migrate();
    return database;
  })();
  return shared;
}

/** The URL of this worker's database on the DATABASE_URL server (`suffix` keeps more than one apart). */
export function workerDatabaseUrl(baseUrl: string, suffix = ''): string {
  const url = new URL(baseUrl);
  url.pathname = `/${url.pathname.slice(1) || 'test'}${suffix}_w${process.env.VITEST_POOL_ID ?? '0'}`;
  return url.toString();
}

/** An empty database of this worker on the DATABASE_URL server (`suffix` keeps more than one apart). */
export async function freshWorkerDatabase(baseUrl: string, suffix = ''): Promise<string> {
  const url = new URL(workerDatabaseUrl(baseUrl, suffix));
  const name = url.pathname.slice(1);
  const maintenance = new URL(baseUrl);
  maintenance.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: maintenance.toString() });
  await admin.connect();
  try {
    await admin.query(`drop database if exists "${name}" with (force)`);
    await admin.query(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  return url.toString();
}

/** Empties every table of the app (not the migration journal, which lives in schema drizzle). */
export async function resetDatabase(database: Database): Promise<void> {
  const tables = await rows<{ tablename: string }>(
    database.db,
    sql`select tablename from pg_tables where schemaname = 'public'`,
  );
  if (tables.length) {
    // The audit log refuses TRUNCATE but to the retention job's setting (migration audit_log_data).
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`select set_config('emporium.audit_retention', 'on', true)`);
      await tx.execute(sql.raw(`truncate ${tables.map((t) => `"${t.tablename}"`).join(', ')} cascade`));
    });
  }
}
