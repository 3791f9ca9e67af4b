import { and, asc, count, eq, gte, lt, sql } from 'drizzle-orm';
import type { Executor } from '../../../platform/db/database.ts';
import { marketplaceLogEntries } from './tables.ts';

export type LogEntryRow = typeof marketplaceLogEntries.$inferSelect;

/** Appends at the next index; the lock queues concurrent appends (two approvals at once). Idempotent per version. */
export async function appendLogEntry(
  db: Executor,
  row: Omit<typeof marketplaceLogEntries.$inferInsert, 'leaf_index'>,
): Promise<LogEntryRow> {
  await db.execute(sql`lock table ${marketplaceLogEntries} in share row exclusive mode`);
  const [existing] = await db
    .select()
    .from(marketplaceLogEntries)
    .where(eq(marketplaceLogEntries.version_id, row.version_id));
  if (existing) return existing;
  const [{ n }] = await db.select({ n: count() }).from(marketplaceLogEntries);
  const [created] = await db
    .insert(marketplaceLogEntries)
    .values({ ...row, leaf_index: Number(n) })
    .returning();
  return created;
}

export async function logSize(db: Executor): Promise<number> {
  const [{ n }] = await db.select({ n: count() }).from(marketplaceLogEntries);
  return Number(n);
}

/** Entries [start, end) in index order. */
export async function listLogEntries(db: Executor, start: number, end: number): Promise<LogEntryRow[]> {
  return db
    .select()
    .from(marketplaceLogEntries)
    .where(and(gte(marketplaceLogEntries.leaf_index, start), lt(marketplaceLogEntries.leaf_index, end)))
    .orderBy(asc(marketplaceLogEntries.leaf_index));
}

export async function findLogEntry(
  db: Executor,
  marketplaceId: string,
  version: string,
  sha256?: string,
): Promise<LogEntryRow | undefined> {
  const [row] = await db
    .select()
    .from(marketplaceLogEntries)
    .where(
      and(
        eq(marketplaceLogEntries.marketplace_id, marketplaceId),
        eq(marketplaceLogEntries.version, version),
        sha256 ? eq(marketplaceLogEntries.sha256, sha256) : undefined,
      ),
    )
    .orderBy(asc(marketplaceLogEntries.leaf_index))
    .limit(1);
  return row;
}
