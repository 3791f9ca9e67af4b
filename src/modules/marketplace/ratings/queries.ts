import { and, avg, count, desc, eq, gte, inArray, isNull } from 'drizzle-orm';
import type { Executor } from '../../../platform/db/database.ts';
import { marketplaceInstalls, marketplaceReviews } from './tables.ts';

export type ReviewRow = typeof marketplaceReviews.$inferSelect;

export async function touchInstall(db: Executor, itemId: string, instanceHash: string, version: string, now: Date) {
  await db
    .insert(marketplaceInstalls)
    .values({ item_id: itemId, instance_hash: instanceHash, version, first_at: now, last_at: now })
    .onConflictDoUpdate({
      target: [marketplaceInstalls.item_id, marketplaceInstalls.instance_hash],
      set: { version, last_at: now },
    });
}

export async function hasInstall(db: Executor, itemId: string, instanceHash: string): Promise<boolean> {
  const [row] = await db
    .select({ n: count() })
    .from(marketplaceInstalls)
    .where(and(eq(marketplaceInstalls.item_id, itemId), eq(marketplaceInstalls.instance_hash, instanceHash)));
  return Number(row.n) > 0;
}

/** Per item: distinct instances that downloaded it since `since`. */
export async function activeInstalls(db: Executor, itemIds: string[], since: Date): Promise<Map<string, number>> {
  if (!itemIds.length) return new Map();
  const rows = await db
    .select({ item_id: marketplaceInstalls.item_id, n: count() })
    .from(marketplaceInstalls)
    .where(and(inArray(marketplaceInstalls.item_id, itemIds), gte(marketplaceInstalls.last_at, since)))
    .groupBy(marketplaceInstalls.item_id);
  return new Map(rows.map((r) => [r.item_id, Number(r.n)]));
}

/** Per item: average and count of the visible ratings. */
export async function ratingStats(
  db: Executor,
  itemIds: string[],
): Promise<Map<string, { average: number; count: number }>> {
  if (!itemIds.length) return new Map();
  const rows = await db
    .select({ item_id: marketplaceReviews.item_id, average: avg(marketplaceReviews.rating), n: count() })
    .from(marketplaceReviews)
    .where(and(inArray(marketplaceReviews.item_id, itemIds), isNull(marketplaceReviews.hidden_at)))
    .groupBy(marketplaceReviews.item_id);
  return new Map(rows.map((r) => [r.item_id, { average: Number(r.average), count: Number(r.n) }]));
}

export async function upsertReview(
  db: Executor,
  row: Pick<ReviewRow, 'id' | 'item_id' | 'instance_hash' | 'rating' | 'body' | 'version'>,
  now: Date,
): Promise<ReviewRow> {
  const [saved] = await db
    .insert(marketplaceReviews)
    .values({ ...row, created_at: now, updated_at: now })
    .onConflictDoUpdate({
      target: [marketplaceReviews.item_id, marketplaceReviews.instance_hash],
      set: { rating: row.rating, body: row.body, version: row.version, updated_at: now },
    })
    .returning();
  return saved;
}

export async function listReviews(db: Executor, itemId: string, includeHidden: boolean): Promise<ReviewRow[]> {
  return db
    .select()
    .from(marketplaceReviews)
    .where(
      and(eq(marketplaceReviews.item_id, itemId), includeHidden ? undefined : isNull(marketplaceReviews.hidden_at)),
    )
    .orderBy(desc(marketplaceReviews.updated_at))
    .limit(200);
}

export async function findReview(db: Executor, itemId: string, id: string): Promise<ReviewRow | undefined> {
  const [row] = await db
    .select()
    .from(marketplaceReviews)
    .where(and(eq(marketplaceReviews.item_id, itemId), eq(marketplaceReviews.id, id)));
  return row;
}

/** Sets the reply only if none was given yet: a vendor answers once. */
export async function setReplyOnce(db: Executor, id: string, reply: string, now: Date): Promise<ReviewRow | undefined> {
  const [row] = await db
    .update(marketplaceReviews)
    .set({ reply, replied_at: now })
    .where(and(eq(marketplaceReviews.id, id), isNull(marketplaceReviews.reply)))
    .returning();
  return row;
}

export async function setHidden(db: Executor, id: string, hidden: { at: Date; reason: string } | null) {
  const [row] = await db
    .update(marketplaceReviews)
    .set({ hidden_at: hidden?.at ?? null, hidden_reason: hidden?.reason ?? null })
    .where(eq(marketplaceReviews.id, id))
    .returning();
  return row;
}
