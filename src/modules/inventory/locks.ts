import { sql, type SQL } from 'drizzle-orm';
import { type Executor, rows } from '../../platform/db/database.ts';
import { from, tableAs } from '../../platform/db/typed-sql.ts';
import { productVariants } from '../products/tables.ts';

const v = tableAs(productVariants, 'v');

/**
 * Every writer of stock locks the variants that sell the stock before the levels it changes (in
 * id order), because the checkout's decrement does the same: it updates the variant row, whose
 * trigger then moves the levels. Taking the locks in the other order would deadlock with it.
 * `items` is a subquery of inventory item ids.
 */
export async function lockVariantsSelling(db: Executor, items: SQL): Promise<void> {
  await rows(
    db,
    sql`select ${v.id} from ${from(v)}
        where ${v.id} in (select l.variant_id from product_variant_inventory_items l where l.inventory_item_id in (${items}))
        order by ${v.id} for update of ${v}`,
  );
}

/** The variants selling stock kept at one location. */
export const itemsAtLocation = (locationId: string): SQL =>
  sql`select inventory_item_id from inventory_levels where location_id = ${locationId}`;

export const itemIds = (ids: string[]): SQL => sql`select unnest(${sql.param(ids)}::text[])`;
