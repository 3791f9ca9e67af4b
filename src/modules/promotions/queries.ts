import { and, asc, count, eq, ilike, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.ts';
import { textArray } from '../../platform/db/prepared.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { campaigns, cartPromotions, promotions } from './tables.ts';
import { containsPattern } from '../../platform/db/like-pattern.ts';

export type PromotionRow = typeof promotions.$inferSelect;
export type CampaignRow = typeof campaigns.$inferSelect;

const livePromotion = (id: string) => and(eq(promotions.id, id), isNull(promotions.deleted_at));
const liveCampaign = (id: string) => and(eq(campaigns.id, id), isNull(campaigns.deleted_at));

export async function findPromotion(db: Executor, id: string): Promise<PromotionRow | undefined> {
  return (await db.select().from(promotions).where(livePromotion(id)))[0];
}

/** Live promotions whose code is one of `codes`, whatever the case. */
export async function findByCodes(db: Executor, codes: string[]): Promise<PromotionRow[]> {
  if (!codes.length) return [];
  const lowered = codes.map((c) => c.toLowerCase());
  return db
    .select()
    .from(promotions)
    .where(and(isNull(promotions.deleted_at), inArray(sql`lower(${promotions.code})`, lowered)));
}

export function promotionFilters(f: {
  q?: string;
  code?: string;
  campaign_id?: string;
  status?: string;
  is_automatic?: boolean;
}): SQL[] {
  const where: SQL[] = [];
  if (f.q) where.push(ilike(promotions.code, containsPattern(f.q)));
  if (f.code) where.push(eq(sql`lower(${promotions.code})`, f.code.toLowerCase()));
  if (f.campaign_id) where.push(eq(promotions.campaign_id, f.campaign_id));
  if (f.status) where.push(eq(promotions.status, f.status as PromotionRow['status']));
  if (f.is_automatic !== undefined) where.push(eq(promotions.is_automatic, f.is_automatic));
  return where;
}

export async function listPromotionRows(db: Executor, where: SQL[], page: Page) {
  const filter = and(isNull(promotions.deleted_at), ...where);
  const rows = await db
    .select()
    .from(promotions)
    .where(filter)
    .orderBy(asc(promotions.created_at), asc(promotions.id))
    .limit(page.limit)
    .offset(page.offset);
  const [{ n }] = await db.select({ n: count() }).from(promotions).where(filter);
  return { rows, count: Number(n) };
}

export async function insertPromotion(db: Executor, row: PromotionRow) {
  await db.insert(promotions).values(row);
}

export async function updatePromotionRow(db: Executor, id: string, patch: Partial<PromotionRow>) {
  return (await db.update(promotions).set(patch).where(livePromotion(id)).returning())[0];
}

export async function softDeletePromotion(db: Executor, id: string, now: Date) {
  return (
    (await db.update(promotions).set({ deleted_at: now }).where(livePromotion(id)).returning({ id: promotions.id }))
      .length > 0
  );
}

export async function findCampaign(db: Executor, id: string): Promise<CampaignRow | undefined> {
  return (await db.select().from(campaigns).where(liveCampaign(id)))[0];
}

export async function campaignsByIds(db: Executor, ids: string[]): Promise<CampaignRow[]> {
  if (!ids.length) return [];
  return db
    .select()
    .from(campaigns)
    .where(and(isNull(campaigns.deleted_at), inArray(campaigns.id, ids)));
}

export async function listCampaignRows(db: Executor, where: SQL[], page: Page) {
  const filter = and(isNull(campaigns.deleted_at), ...where);
  const rows = await db
    .select()
    .from(campaigns)
    .where(filter)
    .orderBy(asc(campaigns.created_at), asc(campaigns.id))
    .limit(page.limit)
    .offset(page.offset);
  const [{ n }] = await db.select({ n: count() }).from(campaigns).where(filter);
  return { rows, count: Number(n) };
}

export async function insertCampaign(db: Executor, row: CampaignRow) {
  await db.insert(campaigns).values(row);
}

export async function updateCampaignRow(db: Executor, id: string, patch: Partial<CampaignRow>) {
  return (await db.update(campaigns).set(patch).where(liveCampaign(id)).returning())[0];
}

export async function softDeleteCampaign(db: Executor, id: string, now: Date) {
  const done = await db
    .update(campaigns)
    .set({ deleted_at: now })
    .where(liveCampaign(id))
    .returning({ id: campaigns.id });
  if (done.length) await db.update(promotions).set({ campaign_id: null }).where(eq(promotions.campaign_id, id));
  return done.length > 0;
}

export async function setCampaignOf(db: Executor, promotionIds: string[], campaignId: string | null, now: Date) {
  if (!promotionIds.length) return;
  await db
    .update(promotions)
    .set({ campaign_id: campaignId, updated_at: now })
    .where(and(isNull(promotions.deleted_at), inArray(promotions.id, promotionIds)));
}

/** The codes a cart applied: replaced, added or removed (carts read them with their facts). */
export async function addCartPromotions(db: Executor, cartId: string, promotionIds: string[], now: Date) {
  if (!promotionIds.length) return;
  await db
    .insert(cartPromotions)
    .values(promotionIds.map((promotion_id) => ({ cart_id: cartId, promotion_id, created_at: now })))
    .onConflictDoNothing();
}

/** The codes of a cart being created, as a write of the statement that inserts the cart. */
export function newCartPromotionsWrite(cartId: string, promotionIds: string[], now: Date): SQL {
  return sql`insert into cart_promotions (cart_id, promotion_id, created_at)
    select ${cartId}, x.id, ${now.toISOString()}::timestamptz from unnest(${textArray(promotionIds)}) x(id)`;
}

export async function removeCartPromotions(db: Executor, cartId: string, promotionIds: string[] | 'all') {
  const where =
    promotionIds === 'all'
      ? eq(cartPromotions.cart_id, cartId)
      : and(eq(cartPromotions.cart_id, cartId), inArray(cartPromotions.promotion_id, promotionIds));
  if (promotionIds !== 'all' && !promotionIds.length) return;
  await db.delete(cartPromotions).where(where);
}
