import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.ts';
import { rows } from '../../platform/db/database.ts';
import type { OrderLineRow } from '../orders/queries.ts';
import { orderLineItems } from '../orders/tables.ts';
import { columnNames } from '../../platform/db/typed-sql.ts';
import { productVariants as pv } from '../products/tables.ts';

export async function insertLine(db: Executor, row: OrderLineRow): Promise<void> {
  await db.insert(orderLineItems).values(row);
}

export async function updateLine(
  db: Executor,
  id: string,
  patch: Pick<OrderLineRow, 'quantity' | 'unit_price' | 'reserved_quantity' | 'updated_at'> &
    Partial<Pick<OrderLineRow, 'pricing'>>,
): Promise<void> {
  await db.update(orderLineItems).set(patch).where(eq(orderLineItems.id, id));
}

/**
 * Takes `quantity` units of a variant that manages inventory, as checkout does: only while its
 * stock covers them (or it allows backorders). False when it could not.
 */
export async function takeStock(db: Executor, variantId: string, quantity: number, now: Date): Promise<boolean> {
  const taken = await rows<{ id: string }>(
    db,
    sql`update ${pv} set ${columnNames(pv.inventory_quantity)} = ${pv.inventory_quantity} - ${quantity}, ${columnNames(pv.updated_at)} = ${now.toISOString()}::timestamptz
        where ${pv.id} = ${variantId} and ${pv.manage_inventory} and ${pv.deleted_at} is null
          and (${pv.allow_backorder} or ${pv.inventory_quantity} >= ${quantity})
        returning ${pv.id}`,
  );
  return taken.length > 0;
}
