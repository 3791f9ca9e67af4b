import type { AddressJson } from '../carts/tables.ts';
import { computeAdjustments, type Adjustment, type PromotionContext } from '../promotions/compute.ts';
import { toPromotionInput, unusable, type StoredPromotion } from '../promotions/stored.ts';
import { systemTaxLines } from '../taxes/select-rates.ts';
import { cartTotals, type CartTotals } from '../totals/cart-totals.ts';
import type { AdjustmentJson, ChargePricingJson, TaxLineJson } from '../totals/shapes.ts';
import type { PricingFacts, ProductFacts } from './facts.ts';

/**
 * Prices a cart: tax lines from its shipping address (when its region taxes automatically, or
 * the shopper asked with `POST /store/carts/{id}/taxes`), then the discounts of its promotions
 * on the amounts without tax, then Medusa's totals. The same function prices the order at
 * placement, which keeps what it computed on each line: the order's totals never move after.
 */

export interface PricingCart {
  id: string;
  currency_code: string;
  region_id: string;
  customer_id: string | null;
  shipping_address: AddressJson | null;
  tax_requested_at: Date | string | null;
  region: { automatic_taxes: boolean } | null;
  lines: { id: string; product_id: string; variant_id: string; unit_price: number; quantity: number }[];
  methods: { id: string; shipping_option_id: string; amount: number }[];
  pricing_facts: PricingFacts;
}

export interface PricedCart {
  lines: ChargePricingJson[];
  methods: ChargePricingJson[];
  totals: CartTotals;
  /** The promotions that discount the cart now, in Medusa's `cart.promotions` shape. */
  promotions: StoredPromotion[];
  /** Codes the cart applied that would exceed their campaign's budget. */
  exceeded: string[];
  /** Every discount, by line or method id (what the order's usage of each promotion sums). */
  adjustments: Adjustment[];
}

/** Whether the cart is taxed now: an address, and a region that taxes automatically or a shopper who asked. */
export const isTaxed = (cart: Pick<PricingCart, 'shipping_address' | 'region' | 'tax_requested_at'>): boolean =>
  !!cart.shipping_address?.country_code && (!!cart.region?.automatic_taxes || !!cart.tax_requested_at);

const NO_FACTS: Omit<ProductFacts, 'id'> = { collection_id: null, type_id: null, categories: [], tags: [] };

export function priceCart(cart: PricingCart, now: Date, only?: StoredPromotion[]): PricedCart {
  const facts = cart.pricing_facts;
  const products = new Map(facts.products.map((p) => [p.id, p]));
  const taxed = isTaxed(cart);
  const inclusive = facts.currency_tax_inclusive;
  // Shipping amounts are the region's (Medusa: a price with a `region_id` rule).
  const methodInclusive = facts.region_tax_inclusive ?? inclusive;
  const fromProvider = facts.provider_tax;
  const lineTax = cart.lines.map((l) =>
    !taxed
      ? []
      : fromProvider
        ? (fromProvider.items[l.id] ?? [])
        : systemTaxLines(
            {
              kind: 'item',
              id: l.id,
              product_id: l.product_id,
              product_type_id: products.get(l.product_id)?.type_id ?? null,
            },
            facts.tax_rates,
          ),
  );
  const methodTax = cart.methods.map((m) =>
    !taxed
      ? []
      : fromProvider
        ? (fromProvider.shipping[m.id] ?? [])
        : systemTaxLines({ kind: 'shipping', id: m.id, shipping_option_id: m.shipping_option_id }, facts.tax_rates),
  );
  const bare = cartTotals(
    cart.lines.map((l, i) => ({ ...l, is_tax_inclusive: inclusive, tax_lines: lineTax[i], adjustments: [] })),
    cart.methods.map((m, i) => ({ ...m, is_tax_inclusive: methodInclusive, tax_lines: methodTax[i], adjustments: [] })),
  );

  const usable = (only ?? facts.promotions).filter((p) => !unusable(p, now));
  const context: PromotionContext = {
    currency_code: cart.currency_code,
    region_id: cart.region_id,
    region: { id: cart.region_id },
    customer_id: cart.customer_id,
    customer: cart.customer_id
      ? { id: cart.customer_id, groups: (facts.customer_groups ?? []).map((id) => ({ id })) }
      : undefined,
    shipping_address: cart.shipping_address ?? undefined,
    item_total: bare.item_total.toNumber(),
    subtotal: bare.subtotal.toNumber(),
    items: cart.lines.map((l, i) => ({
      id: l.id,
      subtotal: bare.items[i].subtotal,
      original_total: bare.items[i].original_total,
      quantity: l.quantity,
      product_id: l.product_id,
      variant_id: l.variant_id,
      product: { ...NO_FACTS, ...products.get(l.product_id), id: l.product_id },
    })),
    shipping_methods: cart.methods.map((m, i) => ({
      id: m.id,
      subtotal: bare.shipping_methods[i].subtotal,
      quantity: 1,
      shipping_option_id: m.shipping_option_id,
      shipping_option: { id: m.shipping_option_id },
    })),
  };
  const { adjustments, exceeded } = computeAdjustments(usable.map(toPromotionInput), context);
  const adjustmentsOf = (id: string): AdjustmentJson[] =>
    adjustments
      .filter((a) => a.target_id === id)
      .map((a) => ({
        id: `${id}:${a.promotion_id}`,
        code: a.code,
        promotion_id: a.promotion_id,
        amount: a.amount.toString(),
        description: null,
        is_tax_inclusive: a.is_tax_inclusive,
      }));
  const lines = cart.lines.map((l, i) => charge(inclusive, lineTax[i], adjustmentsOf(l.id)));
  const methods = cart.methods.map((m, i) => charge(methodInclusive, methodTax[i], adjustmentsOf(m.id)));
  const totals = cartTotals(
    cart.lines.map((l, i) => ({ ...l, ...lines[i] })),
    cart.methods.map((m, i) => ({ ...m, ...methods[i] })),
  );
  const discounting = new Set(adjustments.map((a) => a.promotion_id));
  return {
    lines,
    methods,
    totals,
    promotions: usable.filter((p) => discounting.has(p.promotion.id)),
    exceeded: [...new Set(exceeded)],
    adjustments,
  };
}

const charge = (is_tax_inclusive: boolean, tax_lines: TaxLineJson[], adjustments: AdjustmentJson[]) => ({
  is_tax_inclusive,
  tax_lines,
  adjustments,
});
