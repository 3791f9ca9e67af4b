import { pricedTotals } from '../totals/view.ts';
import type { ChargePricingJson } from '../totals/shapes.ts';

/**
 * What `quantity` units of an order line are worth as the order charges them: the line's total
 * (its tax in, its discounts out) per unit, in whole minor units (Medusa credits a returned item
 * at its total per unit, not its bare price). A line without pricing is worth its price.
 */
export function unitsValue(
  line: { unit_price: number; quantity: number; pricing: ChargePricingJson | null },
  quantity: number,
): number {
  if (line.quantity === 0 || !line.pricing) return line.unit_price * quantity;
  const total = pricedTotals([line], []).total;
  return total.times(quantity).div(line.quantity).integerValue(4).toNumber();
}

/** The desk's counts on a line just added to an order (by an edit or a draft): nothing taken, sent or back yet. */
export const unmovedQuantities = {
  reserved_quantity: 0,
  fulfilled_quantity: 0,
  shipped_quantity: 0,
  returned_quantity: 0,
};
