import type { StoredPromotion } from './stored.ts';

/** A promotion as a cart shows it (Medusa's `cart.promotions`): what the storefront's promo box lists. */
export function promotionSummary(p: StoredPromotion) {
  const m = p.promotion.application_method;
  return {
    id: p.promotion.id,
    code: p.promotion.code,
    is_automatic: p.promotion.is_automatic,
    application_method: { type: m.type, value: m.value, currency_code: m.currency_code, target_type: m.target_type },
  };
}
