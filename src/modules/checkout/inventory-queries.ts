import { sql } from 'drizzle-orm';
import type { NamedPart } from '../../platform/db/one-statement.ts';

/**
 * Takes `quantity` units of each variant, for checkout's statement: one conditional write per
 * variant, by primary key, in variant id order. A variant's row is taken only while its stock
 * covers the quantity (or backorders are allowed), so concurrent checkouts can never oversell (a
 * competing taker waits for the row lock, then re-checks the condition against the committed
 * stock); its row lock is held until checkout commits. Each write RETURNs its variant when taken:
 * fewer rows than variants means a shortfall. The parts are named `stock_take_1`, `stock_take_2`, …
 * (One UPDATE joined to a list of ids would plan as a
 * scan of the whole table on a database without statistics.)
 */
export function stockTakes(wanted: Map<string, number>, now: Date): NamedPart[] {
  const at = now.toISOString();
  return [...wanted.keys()].sort().map((id, i) => [
    `stock_take_${i + 1}`,
    sql`update product_variants set inventory_quantity = inventory_quantity - ${wanted.get(id)!}, updated_at = ${at}::timestamptz
      where id = ${id} and manage_inventory and deleted_at is null
        and (allow_backorder or inventory_quantity >= ${wanted.get(id)!})
      returning id`,
  ]);
}
