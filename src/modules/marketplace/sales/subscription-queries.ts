import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../../platform/db/database.ts';
import type { Page } from '../../../platform/http/pagination.ts';
import { marketplaceSubscriptions } from './tables.ts';

export type SubscriptionRow = typeof marketplaceSubscriptions.$inferSelect;

/** One per provider subscription: a second report of the same checkout adds nothing. */
export async function insertSubscriptionOnce(
  db: Executor,
  row: typeof marketplaceSubscriptions.$inferInsert,
): Promise<void> {
  await db.insert(marketplaceSubscriptions).values(row).onConflictDoNothing();
}

export async function findSubscription(db: Executor, id: string): Promise<SubscriptionRow | undefined> {
  const [row] = await db.select().from(marketplaceSubscriptions).where(eq(marketplaceSubscriptions.id, id)).limit(1);
  return row;
}

export async function findByLicense(db: Executor, licenseId: string): Promise<SubscriptionRow | undefined> {
  const [row] = await db
    .select()
    .from(marketplaceSubscriptions)
    .where(eq(marketplaceSubscriptions.license_id, licenseId))
    .limit(1);
  return row;
}

/** Serialises the events of one subscription (Stripe may deliver them concurrently). */
export async function lockByProviderId(db: Executor, providerId: string): Promise<SubscriptionRow | undefined> {
  const [row] = await db
    .select()
    .from(marketplaceSubscriptions)
    .where(
      and(
        eq(marketplaceSubscriptions.provider, 'stripe'),
        eq(marketplaceSubscriptions.provider_subscription_id, providerId),
      ),
    )
    .for('update')
    .limit(1);
  return row;
}

export async function updateSubscription(
  db: Executor,
  id: string,
  set: Partial<typeof marketplaceSubscriptions.$inferInsert>,
): Promise<SubscriptionRow | undefined> {
  const [row] = await db
    .update(marketplaceSubscriptions)
    .set(set)
    .where(eq(marketplaceSubscriptions.id, id))
    .returning();
  return row;
}

/** Only the items under these namespaces (a vendor's, without `@`), or all (null: the operator). */
function itemFilter(namespaces: string[] | null) {
  if (!namespaces) return undefined;
  if (!namespaces.length) return sql`false`;
  return inArray(
    sql`split_part(${marketplaceSubscriptions.marketplace_id}, '/', 1)`,
    namespaces.map((n) => `@${n}`),
  );
}

export async function listSubscriptionRows(
  db: Executor,
  namespaces: string[] | null,
  page: Page,
): Promise<SubscriptionRow[]> {
  return db
    .select()
    .from(marketplaceSubscriptions)
    .where(itemFilter(namespaces))
    .orderBy(desc(marketplaceSubscriptions.id))
    .limit(page.limit)
    .offset(page.offset);
}

export async function countSubscriptions(db: Executor, namespaces: string[] | null): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(marketplaceSubscriptions)
    .where(itemFilter(namespaces));
  return Number(row.n);
}
