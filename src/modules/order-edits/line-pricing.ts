import type { TxCtx } from '../../platform/context.ts';
import { priceAddedLines } from '../cart-pricing/edit-pricing.ts';
import * as dq from '../orders/desk-queries.ts';
import type { OrderRow } from '../orders/queries.ts';
import type { ChargePricingJson } from '../totals/shapes.ts';

/**
 * Tax lines and discounts for lines an edit adds or changes (`targets`, at their new quantity and
 * price), priced beside the order's other lines as a cart would price them
 * (cart-pricing/edit-pricing.ts). Lines removed (quantity 0) and custom ones (a draft's, no
 * variant) take no part in the products' tax and promotion rules.
 */
export async function priceEditLines(
  tctx: TxCtx,
  order: OrderRow,
  targets: { id: string; product_id: string; variant_id: string; unit_price: number; quantity: number }[],
): Promise<ChargePricingJson[]> {
  const changing = new Set(targets.map((t) => t.id));
  const lines = await dq.listLinesOf(tctx.tx, [order.id]);
  const others = lines.flatMap((l) =>
    l.product_id && l.variant_id && l.quantity > 0 && !changing.has(l.id)
      ? [{ ...l, product_id: l.product_id, variant_id: l.variant_id }]
      : [],
  );
  return priceAddedLines(
    tctx.tx,
    order,
    others,
    await dq.listMethodsOf(tctx.tx, [order.id]),
    targets,
    tctx.clock.now(),
    lines.filter((l) => changing.has(l.id)).map((l) => l.pricing),
  );
}
