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
