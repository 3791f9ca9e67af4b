import { sql } from 'drizzle-orm';
import { type Executor, rows } from '../../platform/db/database.ts';
import { errors } from '../../platform/http/errors.ts';
import { newId } from '../../platform/ids.ts';
import { columnNames } from '../../platform/db/typed-sql.ts';
import { productVariants as pv } from '../products/tables.ts';
import { stockLocations as sl } from '../stock-locations/tables.ts';
import { lockVariantsSelling } from './locks.ts';

async function isLive(db: Executor, locationId: string): Promise<boolean> {
  return (
    (await rows(db, sql`select ${sl.id} from ${sl} where ${sl.id} = ${locationId} and ${sl.deleted_at} is null`))
      .length > 0
  );
}

/** Refuses a location that does not exist (or was deleted), before anything is written. */
export async function assertLocation(db: Executor, locationId: string): Promise<void> {
  if (!(await isLive(db, locationId))) throw errors.notFound('stock_location_not_found', { id: locationId });
}

/**
 * Puts `quantity` units of a variant back on the shelf. With a live location, each item the
 * variant sells goes to that location's level (created if the item had none there); the level
 * trigger then refreshes `product_variants.inventory_quantity`. Without one (or once it is
 * deleted), the variant's own number is raised and its trigger files the units at the default
 * location. Variants are locked before levels, as every stock writer does.
 */
export async function restockVariant(
  db: Executor,
  variantId: string,
  quantity: number,
  now: Date,
  locationId?: string | null,
): Promise<void> {
  if (quantity <= 0) return;
  const at = now.toISOString();
  const links = sql`select inventory_item_id from product_variant_inventory_items where variant_id = ${variantId}`;
  const live = locationId ? await isLive(db, locationId) : false;
  const managed = await rows<{ id: string }>(
    db,
    sql`select ${pv.id} from ${pv} where ${pv.id} = ${variantId} and ${pv.manage_inventory}`,
  );
  if (!managed.length) return;
  if (!live) {
    await db.execute(
      sql`update ${pv} set ${columnNames(pv.inventory_quantity)} = ${pv.inventory_quantity} + ${quantity}, ${columnNames(pv.updated_at)} = ${at}::timestamptz
          where ${pv.id} = ${variantId}`,
    );
    return;
  }
  await lockVariantsSelling(db, links);
  const items = await rows<{ item: string; required: number }>(
    db,
    sql`select inventory_item_id as item, required_quantity as required from product_variant_inventory_items
        where variant_id = ${variantId} order by inventory_item_id`,
  );
  for (const { item, required } of items) {
    await db.execute(
      sql`insert into inventory_levels (id, inventory_item_id, location_id, stocked_quantity, created_at, updated_at)
          values (${newId('ilev')}, ${item}, ${locationId}, ${quantity * required}, ${at}::timestamptz, ${at}::timestamptz)
          on conflict (inventory_item_id, location_id) do update
          set stocked_quantity = inventory_levels.stocked_quantity + excluded.stocked_quantity, updated_at = excluded.updated_at`,
    );
  }
}
