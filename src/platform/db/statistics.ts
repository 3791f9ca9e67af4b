import { type SQL, sql } from 'drizzle-orm';
import type { Handle } from './handle.ts';

// database.ts runs this after migrating, so this file names drizzle's handle type, not database.ts's.
type Runner = Pick<Handle, 'execute'>;

async function rows<T>(db: Runner, query: SQL): Promise<T[]> {
  return (await db.execute(query)).rows as T[];
}

/**
 * Planner statistics without an operator. PGlite has no autovacuum and a PostgreSQL server may
 * run with it off, so tables filled through the API would keep `reltuples = -1` forever; the
 * product analyzes them itself, after migrations and from a cheap periodic check.
 *
 * A table needs ANALYZE when it has data but was never analyzed, when it changed by more than
 * autovacuum's own threshold since (50 rows + 10 %, from pg_stat_user_tables), or when it has
 * more than doubled in pages since (this also catches a restart after a crash, which resets the
 * activity counters). The check reads pg_class and the counter behind pg_stat_user_tables'
 * n_mod_since_analyze directly: the view computes some twenty counters for every table of the
 * database, and skipping it takes about 40 % off the check on a PGlite start.
 */
const STALE_TABLES = sql`
  select c.relname as name
  from pg_class c
  cross join lateral (select pg_relation_size(c.oid) / current_setting('block_size')::int as pages) size
  where c.relnamespace = 'public'::regnamespace and c.relkind = 'r' and size.pages > 0
    and (c.reltuples < 0
      or pg_stat_get_mod_since_analyze(c.oid) > 50 + 0.1 * c.reltuples
      or size.pages > 2 * c.relpages + 8)
  order by c.relname`;

export async function staleTables(db: Runner): Promise<string[]> {
  return (await rows<{ name: string }>(db, STALE_TABLES)).map((r) => r.name);
}

const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Analyzes the stale tables and returns their names. On PostgreSQL one instance at a time does
 * it (an advisory lock tried, not waited for: another instance already on it is as good).
 */
export async function analyzeStaleTables(db: Handle): Promise<string[]> {
  return db.transaction(async (tx) => {
    const [lock] = await rows<{ ok: boolean }>(tx, sql`select pg_try_advisory_xact_lock(7300004) as ok`);
    if (!lock.ok) return [];
    const tables = await staleTables(tx);
    if (tables.length) await tx.execute(sql.raw(`analyze ${tables.map(quoteIdent).join(', ')}`));
    return tables;
  });
}
