import { and, asc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../../platform/db/database.ts';
import { marketplaceItems, marketplaceVersions } from '../catalog/tables.ts';
import { marketplaceRevocations } from './tables.ts';
import { marketplaceSigningKeys } from '../keys/tables.ts';

export type RevocationRow = typeof marketplaceRevocations.$inferSelect;

/** Appends one entry with the next sequence number; the lock makes concurrent revocations queue, not collide. */
export async function appendRevocation(
  db: Executor,
  row: Omit<typeof marketplaceRevocations.$inferInsert, 'sequence'>,
): Promise<RevocationRow> {
  await db.execute(sql`lock table ${marketplaceRevocations} in share row exclusive mode`);
  const [{ next }] = await db
    .select({ next: sql<number>`coalesce(max(${marketplaceRevocations.sequence}), 0)::int + 1` })
    .from(marketplaceRevocations);
  const [created] = await db
    .insert(marketplaceRevocations)
    .values({ ...row, sequence: next })
    .returning();
  return created;
}

export async function listRevocations(db: Executor): Promise<RevocationRow[]> {
  return db.select().from(marketplaceRevocations).orderBy(asc(marketplaceRevocations.sequence));
}

/** Takes a version (or every version of an item) out of the feed, downloads and updates. */
export async function markVersionsRevoked(db: Executor, itemId: string, versionId?: string): Promise<number> {
  const rows = await db
    .update(marketplaceVersions)
    .set({ status: 'revoked' })
    .where(and(eq(marketplaceVersions.item_id, itemId), versionId ? eq(marketplaceVersions.id, versionId) : undefined))
    .returning({ id: marketplaceVersions.id });
  return rows.length;
}

export async function unpublishItem(db: Executor, itemId: string, now: Date): Promise<void> {
  await db
    .update(marketplaceItems)
    .set({ published: false, unpublished_at: now, updated_at: now })
    .where(eq(marketplaceItems.id, itemId));
}

/** A revoked key stops signing: the next signature creates a fresh active key (keys/signing-keys.ts). */
export async function revokeKeyRow(db: Executor, keyId: string, now: Date) {
  const [row] = await db
    .update(marketplaceSigningKeys)
    .set({ active: false, revoked_at: now })
    .where(and(eq(marketplaceSigningKeys.key_id, keyId), sql`${marketplaceSigningKeys.revoked_at} is null`))
    .returning();
  return row;
}
