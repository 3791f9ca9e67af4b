import { sql } from 'drizzle-orm';
import { rows, type Executor } from '../../platform/db/database.ts';

/**
 * Takes `quantity` units of a variant in one conditional statement: it succeeds only while the
 * stock covers it (or backorders are allowed), so concurrent checkouts can never oversell; the
 * row lock it takes is held until the checkout commits. False means a shortfall.
 */
export async function takeStock(db: Executor, variantId: string, quantity: number, now: Date): Promise<boolean> {
  const taken = await rows<{ id: string }>(
    db,
    sql`update product_variants set inventory_quantity = inventory_quantity - ${quantity}, updated_at = ${now.toISOString()}::timestamptz
        where id = ${variantId} and manage_inventory and deleted_at is null
          and (allow_backorder or inventory_quantity >= ${quantity})
        returning id`,
  );
  return taken.length === 1;
}
