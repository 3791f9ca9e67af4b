import { desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { marketplaceCheckoutSessions, marketplaceLicenses } from './tables.ts';

export type CheckoutRow = typeof marketplaceCheckoutSessions.$inferSelect;
export type LicenseRow = typeof marketplaceLicenses.$inferSelect;

export async function insertCheckout(db: Executor, row: typeof marketplaceCheckoutSessions.$inferInsert): Promise<CheckoutRow> {
  const [created] = await db.insert(marketplaceCheckoutSessions).values(row).returning();
  return created;
}

export async function updateCheckout(db: Executor, id: string, set: Partial<typeof marketplaceCheckoutSessions.$inferInsert>): Promise<CheckoutRow | undefined> {
  const [row] = await db.update(marketplaceCheckoutSessions).set(set).where(eq(marketplaceCheckoutSessions.id, id)).returning();
  return row;
}

export async function findCheckout(db: Executor, id: string): Promise<CheckoutRow | undefined> {
  const [row] = await db.select().from(marketplaceCheckoutSessions).where(eq(marketplaceCheckoutSessions.id, id)).limit(1);
  return row;
}

/** Serialises completions of one session: a second report of the same payment waits, then sees it paid. */
export async function lockCheckout(db: Executor, id: string): Promise<CheckoutRow | undefined> {
  const [row] = await db.select().from(marketplaceCheckoutSessions).where(eq(marketplaceCheckoutSessions.id, id)).for('update').limit(1);
  return row;
}

/** Inserts unless this checkout already issued one (unique checkout_session_id); returns the licence either way. */
export async function insertLicenseOnce(db: Executor, row: typeof marketplaceLicenses.$inferInsert): Promise<LicenseRow> {
  const [created] = await db.insert(marketplaceLicenses).values(row).onConflictDoNothing({ target: marketplaceLicenses.checkout_session_id }).returning();
  if (created) return created;
  const [existing] = await db.select().from(marketplaceLicenses).where(eq(marketplaceLicenses.checkout_session_id, row.checkout_session_id!)).limit(1);
  return existing;
}

export async function findLicenseById(db: Executor, id: string): Promise<LicenseRow | undefined> {
  const [row] = await db.select().from(marketplaceLicenses).where(eq(marketplaceLicenses.id, id)).limit(1);
  return row;
}

export async function findLicenseByKey(db: Executor, key: string): Promise<LicenseRow | undefined> {
  const [row] = await db.select().from(marketplaceLicenses).where(eq(marketplaceLicenses.key, key)).limit(1);
  return row;
}

export async function updateLicense(db: Executor, id: string, set: Partial<typeof marketplaceLicenses.$inferInsert>): Promise<LicenseRow | undefined> {
  const [row] = await db.update(marketplaceLicenses).set(set).where(eq(marketplaceLicenses.id, id)).returning();
  return row;
}

/** Extends from the later of the current expiry and `now`, so renewing a lapsed licence gives the full period. */
export async function renewLicense(db: Executor, id: string, now: Date, days: number): Promise<LicenseRow | undefined> {
  const [row] = await db
    .update(marketplaceLicenses)
    .set({
      expires_at: sql`greatest(${marketplaceLicenses.expires_at}, ${now.toISOString()}::timestamptz) + make_interval(days => ${days})`,
      renewed_at: now,
      updated_at: now,
    })
    .where(eq(marketplaceLicenses.id, id))
    .returning();
  return row;
}

const itemFilter = (marketplaceId?: string) => (marketplaceId ? eq(marketplaceLicenses.marketplace_id, marketplaceId) : undefined);

/** Newest first (ids are ULIDs). */
export async function listLicenseRows(db: Executor, filters: { marketplaceId?: string }, page: Page): Promise<LicenseRow[]> {
  return db
    .select()
    .from(marketplaceLicenses)
    .where(itemFilter(filters.marketplaceId))
    .orderBy(desc(marketplaceLicenses.id))
    .limit(page.limit)
    .offset(page.offset);
}

export async function countLicenses(db: Executor, filters: { marketplaceId?: string }): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(marketplaceLicenses).where(itemFilter(filters.marketplaceId));
  return row.n;
}
