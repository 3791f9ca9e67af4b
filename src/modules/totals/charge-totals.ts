import BigNumber from 'bignumber.js';

/**
 * The totals of one charge (a cart or order line, or a shipping method) from its price, its tax
 * rates and its discounts, as Medusa v2 computes them: exact decimals, never rounded, so an
 * order's figures equal Medusa's for the same configuration. Amounts are in the currency's minor
 * units here; only their display changes with AMOUNT_UNITS.
 */

export type Dec = BigNumber;
export type DecInput = BigNumber.Value;

export const dec = (v: DecInput | null | undefined): Dec => new BigNumber(v ?? 0);
export const ZERO = new BigNumber(0);
export const sum = (values: Dec[]): Dec => values.reduce((a, b) => a.plus(b), ZERO);

export interface ChargeInput {
  /** The unit price (a shipping method's amount, with quantity 1). */
  unit_price: DecInput;
  quantity: DecInput;
  /** The price includes the tax of `tax_lines` (a price preference of the region or currency). */
  is_tax_inclusive: boolean;
  /** Rates in percent (19 for 19 %); several lines add up. */
  tax_lines: { rate: DecInput }[];
  /**
   * Discount amounts: without tax, or with it when the promotion was tax-inclusive
   * (`is_tax_inclusive`, Medusa's adjustment flag); the line's own flag plays no part.
   */
  adjustments: { amount: DecInput; is_tax_inclusive?: boolean }[];
}

export interface ChargeTotals {
  subtotal: Dec;
  total: Dec;
  original_total: Dec;
  /** `original_total` without its tax. */
  original_subtotal: Dec;
  discount_total: Dec;
  discount_subtotal: Dec;
  discount_tax_total: Dec;
  tax_total: Dec;
  original_tax_total: Dec;
  /** Per tax line, in input order: the tax on the discounted (`total`) and undiscounted (`subtotal`) amount. */
  tax_lines: { subtotal: Dec; total: Dec }[];
  /** Per adjustment, in input order: without (`subtotal`) and with (`total`) its tax. */
  adjustments: { subtotal: Dec; total: Dec }[];
}

/** Tax of each line on `taxable` (Medusa's `calculateTaxTotal`: no floor at zero). */
function taxOn(taxable: Dec, lines: { rate: DecInput }[]): Dec[] {
  return lines.map((l) => taxable.times(dec(l.rate).div(100)));
}

/** Medusa 2.21's `getLineItemTotals` / `getShippingMethodTotals` (they agree on everything we show). */
export function chargeTotals(c: ChargeInput): ChargeTotals {
  const rate = sum(c.tax_lines.map((l) => dec(l.rate))).div(100);
  const gross = dec(c.unit_price).times(dec(c.quantity));
  // A tax-inclusive price holds its tax: the amount without it is price / (1 + rate).
  const subtotal = c.is_tax_inclusive ? gross.div(rate.plus(1)) : gross;

  const adjustments = c.adjustments.map((a) => {
    const net = a.is_tax_inclusive ? dec(a.amount).div(rate.plus(1)) : dec(a.amount);
    return { subtotal: net, tax: net.times(rate), total: net.plus(net.times(rate)) };
  });
  const discountSubtotal = sum(adjustments.map((a) => a.subtotal));

  const discounted = subtotal.minus(discountSubtotal);
  const taxes = taxOn(discounted, c.tax_lines);
  const originalTaxes = taxOn(subtotal, c.tax_lines);
  const taxTotal = sum(taxes);
  const originalTaxTotal = sum(originalTaxes);
  const originalTotal = c.is_tax_inclusive ? gross : subtotal.plus(originalTaxTotal);
  const discountTax = originalTaxTotal.minus(taxTotal);

  return {
    subtotal,
    total: discounted.plus(taxTotal),
    original_total: originalTotal,
    original_subtotal: originalTotal.minus(originalTaxTotal),
    discount_total: discountSubtotal.plus(discountTax),
    discount_subtotal: discountSubtotal,
    discount_tax_total: discountTax,
    tax_total: taxTotal,
    original_tax_total: originalTaxTotal,
    tax_lines: taxes.map((t, i) => ({ total: t, subtotal: originalTaxes[i] })),
    adjustments: adjustments.map((a) => ({ subtotal: a.subtotal, total: a.total })),
  };
}
