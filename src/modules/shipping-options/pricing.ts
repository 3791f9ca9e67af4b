import type { PriceRule } from '../fulfillment/tables.ts';

/** What a price is chosen by: the cart's currency, region and item total (minor units, taxes as shown). */
export interface PriceContext {
  currency_code: string;
  region_id: string | null;
  item_total: number;
}

interface PriceLike {
  currency_code: string;
  region_id: string | null;
  amount: number;
  rules: PriceRule[];
}

function holds(rule: PriceRule, itemTotal: number): boolean {
  switch (rule.operator) {
    case 'gt':
      return itemTotal > rule.value;
    case 'gte':
      return itemTotal >= rule.value;
    case 'lt':
      return itemTotal < rule.value;
    case 'lte':
      return itemTotal <= rule.value;
    case 'eq':
      return itemTotal === rule.value;
  }
}

/**
 * The price a cart pays for an option: among the prices in its currency (or for its region)
 * whose rules all hold, the most specific (as in Medusa's pricing, the region counts as one rule:
 * "free over 50 EUR" beats the plain price), the region's before the currency's, then the lowest. Undefined when
 * none applies: the option is not offered to that cart.
 */
export function priceForCart<P extends PriceLike>(prices: P[], cart: PriceContext): P | undefined {
  const currency = cart.currency_code.toLowerCase();
  const applicable = prices.filter(
    (p) =>
      (p.region_id ? p.region_id === cart.region_id : p.currency_code.toLowerCase() === currency) &&
      p.rules.every((r) => holds(r, cart.item_total)),
  );
  const specificity = (p: P) => p.rules.length + (p.region_id ? 1 : 0);
  return applicable.sort(
    (a, b) => specificity(b) - specificity(a) || Number(!!b.region_id) - Number(!!a.region_id) || a.amount - b.amount,
  )[0];
}
