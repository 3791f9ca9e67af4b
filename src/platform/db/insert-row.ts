import type { PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from './database.ts';

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
