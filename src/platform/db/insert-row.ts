import { getTableColumns, getTableName, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { type Executor, rows as rawRows } from './database.ts';

/** Inserts one row and answers it as stored (its defaults filled in). */
export async function insertRow<T extends PgTable>(
  db: Executor,
  table: T,
  row: T['$inferInsert'],
): Promise<T['$inferSelect']> {
  const into: PgTable = table;
  const [created] = await db.insert(into).values(row).returning();
  return created as T['$inferSelect'];
}

/**
 * Inserts many rows of one table in one statement with one parameter (the rows as JSON, read
 * with `json_populate_recordset`), however many there are: a multi-row VALUES takes a parameter
 * per column and row, and PostgreSQL stops at 65,535. The columns are the first row's keys, so
 * every row must have the same; a column left out takes its default. Inserted in the order given.
 */
export async function insertRows<T extends PgTable>(
  db: Executor,
  table: T,
  rows: T['$inferInsert'][],
  returning?: string,
): Promise<Record<string, unknown>[]> {
  if (!rows.length) return [];
  const name = getTableName(table);
  const named = getTableColumns(table);
  const keys = Object.keys(rows[0]);
  // JSON keys are column names: rows whose properties are named otherwise are renamed first.
  const renamed = keys.some((k) => named[k]?.name !== k);
  const data = renamed
    ? rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [named[k]?.name ?? k, v])))
    : rows;
  const columns = sql.raw(keys.map((k) => `"${named[k]?.name ?? k}"`).join(', '));
  const back = returning ? sql.raw(` returning ${returning}`) : sql``;
  return rawRows<Record<string, unknown>>(
    db,
    sql`insert into ${sql.identifier(name)} (${columns})
    select ${columns} from json_populate_recordset(null::${sql.identifier(name)}, ${JSON.stringify(data)}::json)
      with ordinality as r order by r.ordinality${back}`,
  );
}
