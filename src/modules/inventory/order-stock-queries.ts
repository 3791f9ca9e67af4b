import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { type Executor, rows } from '../../platform/db/database.ts';
import { newId } from '../../platform/ids.ts';
import type { LevelRow } from './queries.ts';
import type { ReservationRow } from './reservation-queries.ts';
import { from, tableAs } from '../../platform/db/typed-sql.ts';
import { productVariants } from '../products/tables.ts';
import { inventoryLevels, reservationItems } from './tables.ts';

const v = tableAs(productVariants, 'v');

/** The variants of these lines and those selling the items reserved for them, locked in id order. */
export async function lockVariantsOfLines(db: Executor, lineIds: string[], variantIds: string[]): Promise<void> {
  await rows(
    db,
    sql`select ${v.id} from ${from(v)}
        where ${v.id} = any(${sql.param(variantIds)}::text[])
           or ${v.id} in (select l.variant_id from product_variant_inventory_items l
                       where l.inventory_item_id in (select r.inventory_item_id from reservation_items r
                                                     where r.line_item_id = any(${sql.param(lineIds)}::text[])))
        order by ${v.id} for update of ${v}`,
  );
}

/** The reservations of these order lines, locked, in (item, location, id) order. */
export async function lockReservationsOfLines(db: Executor, lineIds: string[]): Promise<ReservationRow[]> {
  if (!lineIds.length) return [];
  return db
    .select()
    .from(reservationItems)
    .where(inArray(reservationItems.line_item_id, lineIds))
    .orderBy(asc(reservationItems.inventory_item_id), asc(reservationItems.location_id), asc(reservationItems.id))
    .for('update');
}

/** Every level of these items, locked in (item, location) order: the order every stock writer takes. */
export async function lockLevelsOfItems(db: Executor, itemIds: string[]): Promise<LevelRow[]> {
  if (!itemIds.length) return [];
  return db
    .select()
    .from(inventoryLevels)
    .where(inArray(inventoryLevels.inventory_item_id, itemIds))
    .orderBy(asc(inventoryLevels.inventory_item_id), asc(inventoryLevels.location_id))
    .for('update');
}

/** Moves a level's stocked and reserved quantities; a missing level is made (stock put back where it left from). */
export async function moveLevel(
  db: Executor,
  item: string,
  location: string,
  stocked: number,
  reserved: number,
  at: Date,
): Promise<void> {
  const moved = await db
    .update(inventoryLevels)
    .set({
      stocked_quantity: sql`${inventoryLevels.stocked_quantity} + ${stocked}`,
      reserved_quantity: sql`${inventoryLevels.reserved_quantity} + ${reserved}`,
      updated_at: at,
    })
    .where(and(eq(inventoryLevels.inventory_item_id, item), eq(inventoryLevels.location_id, location)))
    .returning({ id: inventoryLevels.id });
  if (moved.length) return;
  await db.insert(inventoryLevels).values({
    id: newId('ilev'),
    inventory_item_id: item,
    location_id: location,
    stocked_quantity: stocked,
    reserved_quantity: reserved,
    created_at: at,
    updated_at: at,
  });
}

/** A reservation shrunk by `quantity`, deleted when nothing is left. */
export async function shrinkReservation(db: Executor, r: ReservationRow, quantity: number, at: Date): Promise<void> {
  if (quantity >= r.quantity) await db.delete(reservationItems).where(eq(reservationItems.id, r.id));
  else
    await db
      .update(reservationItems)
      .set({ quantity: r.quantity - quantity, updated_at: at })
      .where(eq(reservationItems.id, r.id));
}

export async function insertLineReservation(
  db: Executor,
  row: { inventory_item_id: string; location_id: string; line_item_id: string; quantity: number },
  at: Date,
): Promise<void> {
  await db.insert(reservationItems).values({ id: newId('resitem'), ...row, created_at: at, updated_at: at });
}
