import { and, asc, count, eq, gt, inArray, isNull } from 'drizzle-orm';
import type { Executor } from '../../../platform/db/database.ts';
import {
  marketplaceVendorNamespaces,
  marketplaceVendors,
  marketplaceVendorTokens,
  marketplaceVendorVerifications,
  type VendorScope,
} from './tables.ts';

export type VendorRow = typeof marketplaceVendors.$inferSelect;
export type VendorTokenRow = typeof marketplaceVendorTokens.$inferSelect;

export async function insertVendor(
  db: Executor,
  row: typeof marketplaceVendors.$inferInsert,
): Promise<VendorRow | undefined> {
  const [made] = await db.insert(marketplaceVendors).values(row).onConflictDoNothing().returning();
  return made;
}

export async function findVendor(db: Executor, id: string): Promise<VendorRow | undefined> {
  const [row] = await db.select().from(marketplaceVendors).where(eq(marketplaceVendors.id, id));
  return row;
}

export async function listVendors(db: Executor, page: { limit: number; offset: number }): Promise<VendorRow[]> {
  return db.select().from(marketplaceVendors).orderBy(asc(marketplaceVendors.id)).limit(page.limit).offset(page.offset);
}

export async function countVendors(db: Executor): Promise<number> {
  const [row] = await db.select({ n: count() }).from(marketplaceVendors);
  return Number(row.n);
}

export async function updateVendor(
  db: Executor,
  id: string,
  set: Partial<typeof marketplaceVendors.$inferInsert>,
): Promise<VendorRow | undefined> {
  const [row] = await db.update(marketplaceVendors).set(set).where(eq(marketplaceVendors.id, id)).returning();
  return row;
}

export async function namespacesOf(
  db: Executor,
  vendorIds: string[],
): Promise<{ namespace: string; vendor_id: string }[]> {
  if (!vendorIds.length) return [];
  return db
    .select({ namespace: marketplaceVendorNamespaces.namespace, vendor_id: marketplaceVendorNamespaces.vendor_id })
    .from(marketplaceVendorNamespaces)
    .where(inArray(marketplaceVendorNamespaces.vendor_id, vendorIds))
    .orderBy(asc(marketplaceVendorNamespaces.namespace));
}

/** Claims a namespace; false when another vendor (or this one) holds it already. */
export async function claimNamespace(db: Executor, namespace: string, vendorId: string, now: Date): Promise<boolean> {
  const made = await db
    .insert(marketplaceVendorNamespaces)
    .values({ namespace, vendor_id: vendorId, created_at: now })
    .onConflictDoNothing()
    .returning({ namespace: marketplaceVendorNamespaces.namespace });
  return made.length === 1;
}

export async function namespaceOwner(db: Executor, namespace: string): Promise<string | undefined> {
  const [row] = await db
    .select({ vendor_id: marketplaceVendorNamespaces.vendor_id })
    .from(marketplaceVendorNamespaces)
    .where(eq(marketplaceVendorNamespaces.namespace, namespace));
  return row?.vendor_id;
}

export async function insertVerification(db: Executor, row: typeof marketplaceVendorVerifications.$inferInsert) {
  await db.insert(marketplaceVendorVerifications).values(row);
}

/** Marks a live verification used and returns it; undefined when unknown, used or expired. */
export async function consumeVerification(db: Executor, tokenHash: string, now: Date) {
  const [row] = await db
    .update(marketplaceVendorVerifications)
    .set({ used_at: now })
    .where(
      and(
        eq(marketplaceVendorVerifications.token_hash, tokenHash),
        isNull(marketplaceVendorVerifications.used_at),
        gt(marketplaceVendorVerifications.expires_at, now),
      ),
    )
    .returning();
  return row;
}

export async function insertToken(
  db: Executor,
  row: typeof marketplaceVendorTokens.$inferInsert,
): Promise<VendorTokenRow> {
  const [made] = await db.insert(marketplaceVendorTokens).values(row).returning();
  return made;
}

export async function listTokens(db: Executor, vendorId: string): Promise<VendorTokenRow[]> {
  return db
    .select()
    .from(marketplaceVendorTokens)
    .where(eq(marketplaceVendorTokens.vendor_id, vendorId))
    .orderBy(asc(marketplaceVendorTokens.id));
}

export async function revokeToken(
  db: Executor,
  vendorId: string,
  id: string,
  now: Date,
): Promise<VendorTokenRow | undefined> {
  const [row] = await db
    .update(marketplaceVendorTokens)
    .set({ revoked_at: now, updated_at: now })
    .where(
      and(
        eq(marketplaceVendorTokens.id, id),
        eq(marketplaceVendorTokens.vendor_id, vendorId),
        isNull(marketplaceVendorTokens.revoked_at),
      ),
    )
    .returning();
  return row;
}

export async function touchToken(db: Executor, id: string, now: Date): Promise<void> {
  await db.update(marketplaceVendorTokens).set({ last_used_at: now }).where(eq(marketplaceVendorTokens.id, id));
}

/** The acting vendor behind a token: live token, active vendor, and its namespaces (one read each). */
export async function findTokenActor(
  db: Executor,
  tokenHash: string,
): Promise<{ token_id: string; vendor_id: string; scopes: VendorScope[] } | undefined> {
  const [row] = await db
    .select({
      token_id: marketplaceVendorTokens.id,
      vendor_id: marketplaceVendorTokens.vendor_id,
      scopes: marketplaceVendorTokens.scopes,
    })
    .from(marketplaceVendorTokens)
    .innerJoin(marketplaceVendors, eq(marketplaceVendors.id, marketplaceVendorTokens.vendor_id))
    .where(
      and(
        eq(marketplaceVendorTokens.token_hash, tokenHash),
        isNull(marketplaceVendorTokens.revoked_at),
        eq(marketplaceVendors.status, 'active'),
      ),
    );
  return row;
}
