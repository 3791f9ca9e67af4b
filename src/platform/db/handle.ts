import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';

/**
 * What a raw `execute` answers on both drivers: `{ rows }` (PGlite's Results, node-postgres'
 * QueryResult). Said once here, so reading raw rows needs no cast.
 */
export interface RowsResult extends PgQueryResultHKT {
  readonly type: Rows<this['row']>;
}

interface Rows<T> {
  rows: T[];
}

/** drizzle's handle on either driver (database.ts's Db; its own file, so statistics.ts and migrations.ts can name it). */
export type Handle = PgDatabase<RowsResult>;

/**
 * A driver's drizzle handle as Handle. drizzle types each driver's raw results as its own
 * (PGlite's Results, pg's QueryResult), which it cannot see share `{ rows }`: the one cast of it.
 */
export function sharedHandle(handle: PgDatabase<PgQueryResultHKT>): Handle {
  return handle as Handle;
}
