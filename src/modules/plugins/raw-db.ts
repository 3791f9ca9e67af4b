import type { Database } from '../../platform/db/database.ts';

/** One transaction on the driver itself: plugin SQL is text with `$1…` parameters, not drizzle SQL. */
export interface RawTx {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** Several statements in one string (a migration file); no parameters. */
  exec(text: string): Promise<void>;
}

/**
 * Runs fn in a transaction on the underlying client (`Database.raw`): the pg pool or the
 * PGlite instance. On PGlite this takes the same transaction lock as drizzle's transactions.
 */
export async function withRawTx<T>(database: Database, fn: (tx: RawTx) => Promise<T>): Promise<T> {
  const raw = database.raw;
  if (raw.kind === 'pglite') {
    return raw.pglite.transaction((tx) =>
      fn({
        query: async <R>(text: string, params?: unknown[]) => (await tx.query(text, params ?? [])).rows as R[],
        exec: async (text: string) => void (await tx.exec(text)),
      }),
    );
  }
  const conn = await raw.pool.connect();
  let broken = false;
  try {
    await conn.query('begin');
    const result = await fn({
      query: async <R>(text: string, params?: unknown[]) => (await conn.query(text, params ?? [])).rows as R[],
      exec: async (text: string) => void (await conn.query(text)),
    });
    await conn.query('commit');
    return result;
  } catch (err) {
    await conn.query('rollback').catch(() => (broken = true));
    throw err;
  } finally {
    conn.release(broken);
  }
}

/** `plugin_<manifest id with - as _>`, shortened with a hash when above PostgreSQL's 63-byte names. */
export function schemaNameOf(manifestId: string): string {
  const name = `plugin_${manifestId.replace(/-/g, '_')}`;
  if (name.length <= 63) return name;
  let h = 0;
  for (const c of manifestId) h = (Math.imul(h, 31) + c.charCodeAt(0)) >>> 0;
  return `${name.slice(0, 54)}_${h.toString(16).padStart(8, '0')}`;
}

/**
 * Switches a transaction the host opened to the plugin: its role (plugin-role.ts, named like its
 * schema; PostgreSQL then refuses everything the role was not granted) and unqualified names
 * resolving to its schema (pg_catalog stays reachable). Both end with the transaction.
 */
export async function enterPlugin(tx: RawTx, schema: string): Promise<void> {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`Unsafe plugin schema name: ${schema}`);
  await tx.exec(`set local role "${schema}"; set local search_path to "${schema}"`);
}

/**
 * Back to the shop before the transaction commits. First, still as the plugin, the checks and
 * triggers the plugin's statements deferred to the commit run now: PostgreSQL before 18 runs
 * them as whoever the transaction is at the commit, the shop's user (a deferred constraint
 * trigger's function would read and write any table; 18, and PGlite, run them as the role that
 * queued them). Then the role and every setting go back: the SQL guard already
 * refuses statements that change settings, but a session-level `set` made inside a transaction
 * survives its commit, and the connection is the shop's. RESET ALL leaves the role alone, hence both.
 */
export async function leavePlugin(tx: RawTx): Promise<void> {
  await tx.exec('set constraints all immediate; reset role; reset all');
}

/** Runs fn in its own transaction as the plugin (enterPlugin), then leaves it (leavePlugin). */
export function inPluginSchema<T>(database: Database, schema: string, fn: (tx: RawTx) => Promise<T>): Promise<T> {
  return withRawTx(database, async (tx) => {
    await enterPlugin(tx, schema);
    const result = await fn(tx);
    await leavePlugin(tx);
    return result;
  });
}
