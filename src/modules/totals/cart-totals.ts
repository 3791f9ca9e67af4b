import { chargeTotals, sum, type ChargeInput, type ChargeTotals, type Dec, type DecInput } from './charge-totals.ts';

/**
 * A cart's (or an order's) totals from its lines and shipping methods, summed as Medusa's
 * `decorateCartTotals` does: `total = subtotal + tax_total - discount_subtotal`, where `subtotal`
 * is items and shipping without tax, and `discount_total` includes the discounts' tax.
 */

export interface LineInput extends Omit<ChargeInput, 'unit_price' | 'quantity'> {
  unit_price: DecInput;
  quantity: DecInput;
}
export interface MethodInput extends Omit<ChargeInput, 'unit_price' | 'quantity'> {
  amount: DecInput;
}

export interface CartTotals {
  items: ChargeTotals[];
  shipping_methods: ChargeTotals[];
  item_subtotal: Dec;
  item_total: Dec;
  item_tax_total: Dec;
  original_item_total: Dec;
  original_item_subtotal: Dec;
  original_item_tax_total: Dec;
  shipping_subtotal: Dec;
  shipping_total: Dec;
  shipping_tax_total: Dec;
  original_shipping_subtotal: Dec;
  original_shipping_total: Dec;
  original_shipping_tax_total: Dec;
  item_discount_total: Dec;
  shipping_discount_total: Dec;
  original_subtotal: Dec;
  subtotal: Dec;
  tax_total: Dec;
  original_tax_total: Dec;
  discount_total: Dec;
  discount_subtotal: Dec;
  discount_tax_total: Dec;
  original_total: Dec;
  total: Dec;
}

export function cartTotals(lines: LineInput[], methods: MethodInput[]): CartTotals {
  const items = lines.map((l) => chargeTotals(l));
  const shipping = methods.map((m) => chargeTotals({ ...m, unit_price: m.amount, quantity: 1 }));
  const all = [...items, ...shipping];
  const of = (list: ChargeTotals[], key: keyof Omit<ChargeTotals, 'tax_lines' | 'adjustments'>) =>
    sum(list.map((t) => t[key]));

  const subtotal = of(all, 'subtotal');
  const taxTotal = of(all, 'tax_total');
  const discountSubtotal = of(all, 'discount_subtotal');
  return {
    items,
    shipping_methods: shipping,
    item_subtotal: of(items, 'subtotal'),
    item_total: of(items, 'total'),
    item_tax_total: of(items, 'tax_total'),
    original_item_total: of(items, 'original_total'),
    original_item_subtotal: of(items, 'subtotal'),
    original_item_tax_total: of(items, 'original_tax_total'),
    shipping_subtotal: of(shipping, 'subtotal'),
    shipping_total: of(shipping, 'total'),
    shipping_tax_total: of(shipping, 'tax_total'),
    original_shipping_subtotal: of(shipping, 'subtotal'),
    original_shipping_total: of(shipping, 'original_total'),
    original_shipping_tax_total: of(shipping, 'original_tax_total'),
    item_discount_total: of(items, 'discount_total'),
    shipping_discount_total: of(shipping, 'discount_total'),
    // Medusa sums the lines' `subtotal` here, not their `original_subtotal`.
    original_subtotal: subtotal,
    subtotal,
    tax_total: taxTotal,
    original_tax_total: of(all, 'original_tax_total'),
    discount_total: of(all, 'discount_total'),
    discount_subtotal: discountSubtotal,
    discount_tax_total: of(all, 'discount_tax_total'),
    original_total: of(all, 'original_total'),
    total: subtotal.plus(taxTotal).minus(discountSubtotal),
  };
}

/** A decimal as the API writes it: a JSON number, unrounded (Medusa's `BigNumber.numeric`). */
export const num = (d: Dec): number => d.toNumber();
