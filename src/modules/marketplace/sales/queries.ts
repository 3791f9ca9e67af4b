import { desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../../platform/db/database.ts';
import { insertRow } from '../../../platform/db/insert-row.ts';
import type { Page } from '../../../platform/http/pagination.ts';
import { marketplaceCheckoutSessions } from './tables.ts';

export type CheckoutRow = typeof marketplaceCheckoutSessions.$inferSelect;

export function insertCheckout(
  db: Executor,
  row: typeof marketplaceCheckoutSessions.$inferInsert,
): Promise<CheckoutRow> {
  return insertRow(db, marketplaceCheckoutSessions, row);
}

export async function updateCheckout(
  db: Executor,
  id: string,
  set: Partial<typeof marketplaceCheckoutSessions.$inferInsert>,
): Promise<CheckoutRow | undefined> {
  const [row] = await db
    .update(marketplaceCheckoutSessions)
    .set(set)
    .where(eq(marketplaceCheckoutSessions.id, id))
    .returning();
  return row;
}

export async function findCheckout(db: Executor, id: string): Promise<CheckoutRow | undefined> {
  const [row] = await db
    .select()
    .from(marketplaceCheckoutSessions)
    .where(eq(marketplaceCheckoutSessions.id, id))
    .limit(1);
  return row;
}

/** Serialises completions of one session: a second report of the same payment waits, then sees it paid. */
export async function lockCheckout(db: Executor, id: string): Promise<CheckoutRow | undefined> {
  const [row] = await db
    .select()
    .from(marketplaceCheckoutSessions)
    .where(eq(marketplaceCheckoutSessions.id, id))
    .for('update')
    .limit(1);
  return row;
}

/** Checkout sessions for the vendor's desk, newest first (ids are ULIDs). */
export async function listCheckoutRows(db: Executor, page: Page): Promise<CheckoutRow[]> {
  return db
    .select()
    .from(marketplaceCheckoutSessions)
    .orderBy(desc(marketplaceCheckoutSessions.id))
    .limit(page.limit)
    .offset(page.offset);
}

export async function countCheckouts(db: Executor): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(marketplaceCheckoutSessions);
  return row.n;
}
