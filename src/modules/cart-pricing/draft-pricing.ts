import type { TxCtx } from '../../platform/context.ts';
import type { AddressJson } from '../carts/tables.ts';
import type { ChargePricingJson } from '../totals/shapes.ts';
import { newCartFacts } from './facts.ts';
import { priceCart, type PricedCart, type PricingCart } from './price-cart.ts';
import { withProviderTaxes } from './provider-taxes.ts';

/**
 * Prices a draft order as a cart with the same lines, shipping methods, address and codes would
 * be priced: the tax lines of its shipping address (when its region taxes automatically, as a
 * cart's would), the discounts of its codes and of the automatic promotions, then Medusa's
 * totals, all through `priceCart` (a plugin's tax provider first, when the address's tax region
 * names one, as `withProviderTaxes` does for carts). A custom line (a title and a price, no variant) is taxed at
 * the address's default rate and discounted by promotions without product rules, as Medusa's
 * custom line items are.
 */

export interface DraftToPrice {
  id: string;
  currency_code: string;
  region_id: string;
  customer_id: string | null;
  shipping_address: AddressJson | null;
}
export interface DraftLineToPrice {
  id: string;
  product_id: string | null;
  variant_id: string | null;
  unit_price: number;
  quantity: number;
}
export interface DraftMethodToPrice {
  id: string;
  shipping_option_id: string | null;
  amount: number;
}

export interface PricedDraft extends Pick<PricedCart, 'promotions' | 'exceeded' | 'adjustments'> {
  lines: ChargePricingJson[];
  methods: ChargePricingJson[];
}

export async function priceDraft(
  tctx: TxCtx,
  draft: DraftToPrice,
  opts: { automaticTaxes: boolean },
  lines: DraftLineToPrice[],
  methods: DraftMethodToPrice[],
  promotionIds: string[],
): Promise<PricedDraft> {
  const productIds = [...new Set(lines.flatMap((l) => (l.product_id ? [l.product_id] : [])))];
  const facts = await newCartFacts(tctx.tx, draft, productIds, promotionIds);
  const cart: PricingCart = {
    id: draft.id,
    currency_code: draft.currency_code,
    region_id: draft.region_id,
    customer_id: draft.customer_id,
    shipping_address: draft.shipping_address,
    tax_requested_at: null,
    region: { automatic_taxes: opts.automaticTaxes },
    lines: lines.map((l) => ({
      id: l.id,
      product_id: l.product_id ?? '',
      variant_id: l.variant_id ?? '',
      unit_price: l.unit_price,
      quantity: l.quantity,
    })),
    methods: methods.map((m) => ({ id: m.id, shipping_option_id: m.shipping_option_id ?? '', amount: m.amount })),
    pricing_facts: facts,
  };
  // A plugin's tax provider, when the address's tax region names one, as for a cart.
  const priced = priceCart({ ...cart, pricing_facts: await withProviderTaxes(tctx, cart) }, tctx.clock.now());
  return {
    lines: priced.lines,
    methods: priced.methods,
    promotions: priced.promotions,
    exceeded: priced.exceeded,
    adjustments: priced.adjustments,
  };
}
