import type { Executor } from '../../platform/db/database.ts';
import type { AddressJson } from '../carts/tables.ts';
import type { ChargePricingJson } from '../totals/shapes.ts';
import { newCartFacts, promotionsByIds } from './facts.ts';
import { priceCart } from './price-cart.ts';

/**
 * The pricing of a line an order edit adds: the tax lines of the order's address (when the order
 * was taxed: one of its lines or methods has tax lines) and the discounts of the promotions the
 * order already has, computed with its lines as placed and the new one, as a cart would price
 * them. The order's own lines keep what they were placed with (Medusa recomputes them in the
 * edit's preview; a deliberate difference: a placed line's figures never move here).
 */

interface OrderToPrice {
  id: string;
  currency_code: string;
  region_id: string;
  customer_id: string | null;
  shipping_address: AddressJson | null;
}
interface PricedLine {
  id: string;
  product_id: string;
  variant_id: string;
  unit_price: number;
  quantity: number;
  pricing: ChargePricingJson | null;
}
interface PricedMethod {
  id: string;
  shipping_option_id: string | null;
  amount: number;
  pricing: ChargePricingJson | null;
}

export async function priceAddedLines(
  db: Executor,
  order: OrderToPrice,
  lines: PricedLine[],
  methods: PricedMethod[],
  added: Omit<PricedLine, 'pricing'>[],
  now: Date,
  /** What lines being priced again had: their taxes and promotions count as the order's. */
  before: (ChargePricingJson | null)[] = [],
): Promise<ChargePricingJson[]> {
  const charges = [...[...lines, ...methods].map((c) => c.pricing), ...before];
  const taxed = charges.some((p) => (p?.tax_lines.length ?? 0) > 0);
  const promotionIds = [...new Set(charges.flatMap((p) => p?.adjustments.map((a) => a.promotion_id) ?? []))];
  const all = [...lines, ...added];
  const facts = await newCartFacts(db, order, [...new Set(all.map((l) => l.product_id))]);
  const promotions = await promotionsByIds(db, promotionIds);
  const priced = priceCart(
    {
      id: order.id,
      currency_code: order.currency_code,
      region_id: order.region_id,
      customer_id: order.customer_id,
      shipping_address: order.shipping_address,
      tax_requested_at: taxed ? now : null,
      region: { automatic_taxes: false },
      lines: all.map(({ id, product_id, variant_id, unit_price, quantity }) => ({
        id,
        product_id,
        variant_id,
        unit_price,
        quantity,
      })),
      methods: methods.map((m) => ({ id: m.id, shipping_option_id: m.shipping_option_id ?? '', amount: m.amount })),
      pricing_facts: { ...facts, promotions },
    },
    now,
    promotions,
  );
  return priced.lines.slice(lines.length);
}
