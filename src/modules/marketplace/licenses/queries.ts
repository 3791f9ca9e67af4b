import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../../platform/db/database.ts';
import type { Page } from '../../../platform/http/pagination.ts';
import { marketplaceLicenses } from './tables.ts';

export type LicenseRow = typeof marketplaceLicenses.$inferSelect;

/** Inserts unless this checkout already issued one (unique checkout_session_id); returns the license either way. */
export async function insertLicenseOnce(
  db: Executor,
  row: typeof marketplaceLicenses.$inferInsert,
): Promise<LicenseRow> {
  const [created] = await db
    .insert(marketplaceLicenses)
    .values(row)
    .onConflictDoNothing({ target: marketplaceLicenses.checkout_session_id })
    .returning();
  if (created) return created;
  const [existing] = await db
    .select()
    .from(marketplaceLicenses)
    .where(eq(marketplaceLicenses.checkout_session_id, row.checkout_session_id!))
    .limit(1);
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

export async function updateLicense(
  db: Executor,
  id: string,
  set: Partial<typeof marketplaceLicenses.$inferInsert>,
): Promise<LicenseRow | undefined> {
  const [row] = await db.update(marketplaceLicenses).set(set).where(eq(marketplaceLicenses.id, id)).returning();
  return row;
}

/** Extends from the later of the current expiry and `now`, so renewing a lapsed license gives the full period. */
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

/** One item, and (a vendor's view) only the items under its namespaces, without `@`. */
function itemFilter(marketplaceId?: string, namespaces?: string[]) {
  return and(
    marketplaceId ? eq(marketplaceLicenses.marketplace_id, marketplaceId) : undefined,
    namespaces
      ? namespaces.length
        ? inArray(
            sql`split_part(${marketplaceLicenses.marketplace_id}, '/', 1)`,
            namespaces.map((n) => `@${n}`),
          )
        : sql`false`
      : undefined,
  );
}

/** Newest first (ids are ULIDs). */
export async function listLicenseRows(
  db: Executor,
  filters: { marketplaceId?: string; namespaces?: string[] },
  page: Page,
): Promise<LicenseRow[]> {
  return db
    .select()
    .from(marketplaceLicenses)
    .where(itemFilter(filters.marketplaceId, filters.namespaces))
    .orderBy(desc(marketplaceLicenses.id))
    .limit(page.limit)
    .offset(page.offset);
}

export async function countLicenses(
  db: Executor,
  filters: { marketplaceId?: string; namespaces?: string[] },
): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(marketplaceLicenses)
    .where(itemFilter(filters.marketplaceId, filters.namespaces));
  return row.n;
}
