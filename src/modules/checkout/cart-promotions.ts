import type { TxCtx } from '../../platform/context.ts';
import type { Executor } from '../../platform/db/database.ts';
import { errors } from '../../platform/http/errors.ts';
import { priceCart } from '../cart-pricing/price-cart.ts';
import * as pq from '../promotions/queries.ts';
import { unusable } from '../promotions/stored.ts';
import type { FullCart } from './cart-read.ts';

/**
 * The codes a shopper applies to a cart (`promo_codes`): checked before anything is written, and
 * again on the cart as it will be, so a code that cannot discount it is refused with a 400 that
 * names it and the transaction leaves the cart as it was.
 */
export type CodesAction = 'add' | 'remove' | 'replace';

/** Writes the change of codes; answers the codes that must discount the cart once it is read back. */
export async function applyCodes(tctx: TxCtx, cartId: string, codes: string[], action: CodesAction): Promise<string[]> {
  if (action === 'remove') {
    const found = await pq.findByCodes(tctx.tx, codes);
    await pq.removeCartPromotions(
      tctx.tx,
      cartId,
      found.map((p) => p.id),
    );
    return [];
  }
  const ids = await usablePromotionIds(tctx.tx, codes, tctx.clock.now());
  if (action === 'replace') await pq.removeCartPromotions(tctx.tx, cartId, 'all');
  await pq.addCartPromotions(tctx.tx, cartId, ids, tctx.clock.now());
  return codes;
}

/**
 * The promotions of `codes` (whatever their case, each once however often it is named), after
 * refusing by name a code that does not exist or cannot be used now (assertUsable).
 */
export async function usablePromotionIds(db: Executor, codes: string[], now: Date): Promise<string[]> {
  const found = await pq.findByCodes(db, codes);
  await assertUsable(db, now, codes, new Map(found.map((p) => [p.code.toLowerCase(), p])));
  return [...new Set(found.map((p) => p.id))];
}

/**
 * Refuses, naming it, a code that does not exist, is not active, is outside its campaign's dates
 * or whose campaign budget is used up (a cart's codes, a draft order's).
 */
export async function assertUsable(
  db: Executor,
  now: Date,
  codes: string[],
  byCode: Map<string, pq.PromotionRow>,
): Promise<void> {
  const found = [...byCode.values()];
  const campaigns = new Map(
    (
      await pq.campaignsByIds(
        db,
        found.map((p) => p.campaign_id).filter((c) => c !== null),
      )
    ).map((c) => [c.id, c]),
  );
  for (const code of codes) {
    const p = byCode.get(code.toLowerCase());
    if (!p) throw errors.invalid('promotion_code_not_found', { code });
    const campaign = p.campaign_id ? (campaigns.get(p.campaign_id) ?? null) : null;
    const why = unusable({ promotion: p, campaign, applied: true }, now);
    if (why === 'inactive') throw errors.invalid('promotion_code_inactive', { code });
    if (why === 'not_started') throw errors.invalid('promotion_code_not_started', { code });
    if (why === 'expired') throw errors.invalid('promotion_code_expired', { code });
    if (campaign?.budget_type && campaign.budget_limit != null) {
      const used = Number(campaign.budget_used);
      const limit = Number(campaign.budget_limit);
      if (campaign.budget_type === 'usage' ? used + 1 > limit : used >= limit)
        throw errors.invalid('promotion_code_budget_used', { code });
    }
  }
}

/** Every applied code must discount the cart as it now is (read back in the same transaction). */
export function assertCodesApply(cart: FullCart, codes: string[], now: Date): void {
  if (!codes.length || !cart.region) return;
  const priced = priceCart({ ...cart, region: cart.region }, now);
  const discounting = new Set(priced.promotions.map((p) => p.promotion.code.toLowerCase()));
  const exceeded = new Set(priced.exceeded.map((c) => c.toLowerCase()));
  for (const code of codes) {
    if (discounting.has(code.toLowerCase())) continue;
    if (exceeded.has(code.toLowerCase())) throw errors.invalid('promotion_code_budget_used', { code });
    throw errors.invalid('promotion_code_rules_unmet', { code });
  }
}
