import { and, asc, eq, inArray, isNull, ne, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Page } from '../http/pagination.ts';
import type { Executor } from './database.ts';

/**
 * The reads every soft-deleted table (`idColumn()` plus `softDelete` of columns.ts) answers the
 * same way: a page by id, a count, one live row by id (or locked), a value another live row holds.
 * A module's queries.ts still names each query; these only spell the SQL once.
 */
export type LiveTable = PgTable & { id: AnyPgColumn; deleted_at: AnyPgColumn };
type RowOf<T extends PgTable> = T['$inferSelect'];

/** One page of the rows `where` matches, by id. */
export async function rowsPage<T extends LiveTable>(
  db: Executor,
  table: T,
  where: SQL | undefined,
  page: Page,
): Promise<RowOf<T>[]> {
  const from: PgTable = table;
  const rows = await db.select().from(from).where(where).orderBy(asc(table.id)).limit(page.limit).offset(page.offset);
  return rows as RowOf<T>[];
}

/** How many rows `where` matches (count-rows.ts, for every list; here too for the lists of live rows). */
export { countRows } from './count-rows.ts';

/**
 * The row with this id unless deleted. `lock` takes it `for update` (writes of one row run one
 * after the other) or `for share` (writes beside it may run, its delete waits for them).
 */
export async function findLiveRow<T extends LiveTable>(
  db: Executor,
  table: T,
  id: string,
  lock?: 'update' | 'share',
): Promise<RowOf<T> | undefined> {
  const from: PgTable = table;
  const query = db
    .select()
    .from(from)
    .where(and(eq(table.id, id), isNull(table.deleted_at)));
  const [row] = lock ? await query.for(lock) : await query.limit(1);
  return row as RowOf<T> | undefined;
}

/** Whether a live row other than `exceptId` holds this value (a handle, a name) already. */
export async function isLiveValueTaken(
  db: Executor,
  table: LiveTable,
  column: AnyPgColumn,
  value: string,
  exceptId?: string,
): Promise<boolean> {
  const [row] = await db
    .select({ id: table.id })
    .from(table)
    .where(and(eq(column, value), isNull(table.deleted_at), exceptId ? ne(table.id, exceptId) : undefined))
    .limit(1);
  return !!row;
}

/**
 * The ids among `ids` of rows not deleted, in id order. `lock` as in `findLiveRow`: `share` lets
 * a write that links to them run while their delete waits for it; `update` takes them in id order.
 */
export async function liveIdsAmong(
  db: Executor,
  table: LiveTable,
  ids: string[],
  lock?: 'update' | 'share',
): Promise<string[]> {
  if (ids.length === 0) return [];
  const query = db
    .select({ id: table.id })
    .from(table)
    .where(and(inArray(table.id, ids), isNull(table.deleted_at)))
    .orderBy(table.id);
  const found = lock ? await query.for(lock) : await query;
  return found.map((r) => r.id as string);
}
