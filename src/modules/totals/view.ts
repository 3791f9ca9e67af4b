import { cartTotals, num, type CartTotals } from './cart-totals.ts';
import type { ChargeTotals } from './charge-totals.ts';
import type { ChargePricingJson } from './shapes.ts';

/** Totals as the API shows them (JSON numbers, unrounded, minor units until AMOUNT_UNITS converts). */

export const NO_PRICING: ChargePricingJson = { is_tax_inclusive: false, tax_lines: [], adjustments: [] };

/** A line's or method's tax lines, adjustments and totals, for its view. */
export function chargeView(p: ChargePricingJson, t: ChargeTotals) {
  return {
    is_tax_inclusive: p.is_tax_inclusive,
    tax_lines: p.tax_lines.map((l, i) => ({
      ...l,
      subtotal: num(t.tax_lines[i].subtotal),
      total: num(t.tax_lines[i].total),
    })),
    adjustments: p.adjustments.map((a, i) => ({
      ...a,
      amount: Number(a.amount),
      is_tax_inclusive: !!a.is_tax_inclusive,
      subtotal: num(t.adjustments[i].subtotal),
      total: num(t.adjustments[i].total),
    })),
    subtotal: num(t.subtotal),
    total: num(t.total),
    original_total: num(t.original_total),
    original_subtotal: num(t.original_subtotal),
    discount_total: num(t.discount_total),
    discount_subtotal: num(t.discount_subtotal),
    discount_tax_total: num(t.discount_tax_total),
    tax_total: num(t.tax_total),
    original_tax_total: num(t.original_tax_total),
  };
}

export function totalsView(t: CartTotals) {
  return {
    item_subtotal: num(t.item_subtotal),
    item_total: num(t.item_total),
    item_tax_total: num(t.item_tax_total),
    shipping_subtotal: num(t.shipping_subtotal),
    shipping_total: num(t.shipping_total),
    shipping_tax_total: num(t.shipping_tax_total),
    subtotal: num(t.subtotal),
    tax_total: num(t.tax_total),
    discount_total: num(t.discount_total),
    discount_subtotal: num(t.discount_subtotal),
    discount_tax_total: num(t.discount_tax_total),
    original_total: num(t.original_total),
    original_tax_total: num(t.original_tax_total),
    original_item_total: num(t.original_item_total),
    original_item_subtotal: num(t.original_item_subtotal),
    original_item_tax_total: num(t.original_item_tax_total),
    original_shipping_total: num(t.original_shipping_total),
    original_shipping_subtotal: num(t.original_shipping_subtotal),
    original_shipping_tax_total: num(t.original_shipping_tax_total),
    original_subtotal: num(t.original_subtotal),
    item_discount_total: num(t.item_discount_total),
    shipping_discount_total: num(t.shipping_discount_total),
    total: num(t.total),
  };
}

/** Totals of lines and methods whose pricing is known (an order's, as placed). */
export function pricedTotals(
  lines: { unit_price: number; quantity: number; pricing: ChargePricingJson | null }[],
  methods: { amount: number; pricing: ChargePricingJson | null }[],
): CartTotals {
  return cartTotals(
    lines.map((l) => ({ ...l, ...(l.pricing ?? NO_PRICING), adjustments: (l.pricing ?? NO_PRICING).adjustments })),
    methods.map((m) => ({ ...m, ...(m.pricing ?? NO_PRICING) })),
  );
}

/**
 * What is charged: the total rounded half-up to the currency's minor unit (a payment moves
 * whole cents; Medusa's total stays exact, and so does ours on the cart and the order).
 */
export const chargedAmount = (t: CartTotals): number => t.total.integerValue(4).toNumber();
