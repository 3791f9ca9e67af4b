import type { TxCtx } from '../../platform/context.ts';
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
  const found = await pq.findByCodes(tctx.tx, codes);
  const byCode = new Map(found.map((p) => [p.code.toLowerCase(), p]));
  if (action === 'remove') {
    await pq.removeCartPromotions(
      tctx.tx,
      cartId,
      found.map((p) => p.id),
    );
    return [];
  }
  await assertUsable(tctx, codes, byCode);
  const now = tctx.clock.now();
  if (action === 'replace') await pq.removeCartPromotions(tctx.tx, cartId, 'all');
  await pq.addCartPromotions(tctx.tx, cartId, [...new Set(found.map((p) => p.id))], now);
  return codes;
}

/**
 * Refuses, naming it, a code that does not exist, is not active, is outside its campaign's dates
 * or whose campaign budget is used up (a cart's codes, a draft order's).
 */
export async function assertUsable(tctx: TxCtx, codes: string[], byCode: Map<string, pq.PromotionRow>): Promise<void> {
  const found = [...byCode.values()];
  const campaigns = new Map(
    (
      await pq.campaignsByIds(
        tctx.tx,
        found.map((p) => p.campaign_id).filter((c) => c !== null),
      )
    ).map((c) => [c.id, c]),
  );
  const now = tctx.clock.now();
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
