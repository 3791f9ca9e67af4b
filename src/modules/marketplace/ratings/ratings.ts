import { createHash } from 'node:crypto';
import { inTx, type Ctx } from '../../../platform/context.ts';
import { errors } from '../../../platform/http/errors.ts';
import { newId } from '../../../platform/ids.ts';
import * as catalog from '../catalog/queries.ts';
import { assertOwnsNamespace } from '../vendors/lookup.ts';
import * as q from './queries.ts';

/**
 * Ratings, reviews and installs. A shop counts once among an item's installs when it asks for a
 * download descriptor with its instance token (kept only as a sha256); an active install is one
 * within 90 days. Only a shop that installed the item may rate it (1–5 and a text, one per shop,
 * editable); its vendor answers once; the operator hides abusive ones (out of page and average).
 */

export const ACTIVE_INSTALL_DAYS = 90;

export const instanceHash = (instanceId: string) => createHash('sha256').update(instanceId).digest('hex');

/** Called by downloads/ for a descriptor asked with an instance token. */
export async function recordInstall(ctx: Ctx, itemId: string, instanceId: string, version: string): Promise<void> {
  await q.touchInstall(ctx.db, itemId, instanceHash(instanceId), version, ctx.clock.now());
}

/** For the feed and item pages: average (1 decimal), count and active installs per item. */
export async function itemStats(ctx: Ctx, itemIds: string[]) {
  const since = new Date(ctx.clock.now().getTime() - ACTIVE_INSTALL_DAYS * 86_400_000);
  const [installs, ratings] = await Promise.all([
    q.activeInstalls(ctx.db, itemIds, since),
    q.ratingStats(ctx.db, itemIds),
  ]);
  return (itemId: string) => {
    const r = ratings.get(itemId);
    return {
      rating_average: r ? Math.round(r.average * 10) / 10 : null,
      rating_count: r?.count ?? 0,
      active_installs: installs.get(itemId) ?? 0,
    };
  };
}

export function reviewJson(r: q.ReviewRow) {
  return {
    id: r.id,
    rating: r.rating,
    body: r.body,
    version: r.version,
    reply: r.reply,
    replied_at: r.replied_at,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

/** What the vendor and operator see: also whether (and why) the operator hid it. */
export function adminReviewJson(r: q.ReviewRow) {
  return { ...reviewJson(r), hidden_at: r.hidden_at, hidden_reason: r.hidden_reason };
}

export interface ReviewInput {
  marketplace_id: string;
  instance_id: string;
  rating: number;
  body?: string;
}

/** A shop rates an item it installed; a second call edits its review. */
export async function submitReview(ctx: Ctx, input: ReviewInput) {
  const [item] = await catalog.findItemsByMarketplaceIds(ctx.db, [input.marketplace_id], true);
  if (!item) throw errors.notFound('marketplace_item_not_found', { marketplace_id: input.marketplace_id });
  const hash = instanceHash(input.instance_id);
  return inTx(ctx, async (tctx) => {
    if (!(await q.hasInstall(tctx.tx, item.id, hash))) throw errors.forbidden('marketplace_review_not_installed');
    const saved = await q.upsertReview(
      tctx.tx,
      {
        id: newId('mrv'),
        item_id: item.id,
        instance_hash: hash,
        rating: input.rating,
        body: input.body ?? '',
        version: null,
      },
      tctx.clock.now(),
    );
    return reviewJson(saved);
  });
}

export async function publicReviews(ctx: Ctx, marketplaceId: string) {
  const [item] = await catalog.findItemsByMarketplaceIds(ctx.db, [marketplaceId], true);
  if (!item) throw errors.notFound('marketplace_item_not_found', { marketplace_id: marketplaceId });
  const stats = (await itemStats(ctx, [item.id]))(item.id);
  return { ...stats, reviews: (await q.listReviews(ctx.db, item.id, false)).map((r) => reviewJson(r)) };
}

/** 403 for a vendor that does not own the item's namespace (an unknown item is left to the handler's 404). */
export async function assertOwnsItem(ctx: Ctx, itemId: string): Promise<void> {
  const item = await catalog.findItemById(ctx.db, itemId);
  if (item) await assertOwnsNamespace(ctx, item.vendor);
}

async function ownedItem(ctx: Ctx, itemId: string) {
  const item = await catalog.findItemById(ctx.db, itemId);
  if (!item) throw errors.notFound('marketplace_item_missing', { id: itemId });
  await assertOwnsNamespace(ctx, item.vendor);
  return item;
}

/** The vendor's and operator's list: hidden reviews included, with why. */
export async function adminReviews(ctx: Ctx, itemId: string) {
  const item = await ownedItem(ctx, itemId);
  return { reviews: (await q.listReviews(ctx.db, item.id, true)).map((r) => adminReviewJson(r)) };
}

export async function replyToReview(ctx: Ctx, itemId: string, reviewId: string, reply: string) {
  const item = await ownedItem(ctx, itemId);
  return inTx(ctx, async (tctx) => {
    const review = await q.findReview(tctx.tx, item.id, reviewId);
    if (!review) throw errors.notFound('marketplace_review_not_found', { id: reviewId });
    const saved = await q.setReplyOnce(tctx.tx, review.id, reply, tctx.clock.now());
    if (!saved) throw errors.conflict('marketplace_review_answered');
    return { review: adminReviewJson(saved) };
  });
}

/** The operator hides (or shows again) a review. */
export async function hideReview(ctx: Ctx, itemId: string, reviewId: string, hidden: boolean, reason?: string) {
  return inTx(ctx, async (tctx) => {
    const review = await q.findReview(tctx.tx, itemId, reviewId);
    if (!review) throw errors.notFound('marketplace_review_not_found', { id: reviewId });
    const saved = await q.setHidden(tctx.tx, review.id, hidden ? { at: tctx.clock.now(), reason: reason ?? '' } : null);
    return { review: adminReviewJson(saved!) };
  });
}
