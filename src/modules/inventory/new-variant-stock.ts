import { sql } from 'drizzle-orm';
import { type Executor, rows } from '../../platform/db/database.ts';
import { newId } from '../../platform/ids.ts';

/**
 * Stock for many new variants at once. One at a time, the variant insert trigger gives each new
 * stock-managed variant an inventory item, a level at the default location holding the quantity
 * it was created with, and the link between them (migration stock_locations_inventory_data): three
 * inserts and their triggers per variant. A writer of many variants (a CSV import's batch) turns
 * that off for its own insert (`insertVariantsWithoutStock`) and calls `giveNewVariantsStock`
 * after it, which makes the same rows in three statements for the whole set.
 */

export interface NewVariantStock {
  id: string;
  sku: string | null;
  title: string;
  manage_inventory: boolean;
  inventory_quantity: number;
}

/**
 * Runs `write` with the stock triggers standing aside (migration variant_stock_given): the new
 * variants' insert makes no item, and their levels and links recompute no variant (each already
 * holds its level's quantity). Set for the transaction, and unset again right after `write`.
 */
async function stockGiven(tx: Executor, write: () => Promise<unknown>): Promise<void> {
  await tx.execute(sql`select set_config('emporium.variant_stock', 'given', true)`);
  await write();
  await tx.execute(sql`select set_config('emporium.variant_stock', '', true)`);
}

/** Runs `insert` (the new variants' INSERT) without the per-variant stock trigger: call giveNewVariantsStock after. */
export function insertVariantsWithoutStock(tx: Executor, insert: () => Promise<unknown>): Promise<void> {
  return stockGiven(tx, insert);
}

/** The trigger's item, level and link for each stock-managed variant, made together. */
export async function giveNewVariantsStock(tx: Executor, variants: NewVariantStock[], now: Date): Promise<void> {
  const managed = variants.filter((v) => v.manage_inventory);
  if (!managed.length) return;
  const at = now.toISOString();
  const items = managed.map(() => newId('iitem'));
  const [{ location }] = await rows<{ location: string }>(
    tx,
    sql`select inventory_default_location(${at}::timestamptz) as location`,
  );
  const list = (values: unknown[]) => sql.param(values);
  await stockGiven(tx, () => insertStock(tx, managed, items, location, at, list));
}

async function insertStock(
  tx: Executor,
  managed: NewVariantStock[],
  items: string[],
  location: string,
  at: string,
  list: (values: unknown[]) => ReturnType<typeof sql.param>,
): Promise<void> {
  // An item takes the variant's SKU unless a live item already has it (as the trigger does).
  await tx.execute(sql`insert into inventory_items (id, sku, title, requires_shipping, created_at, updated_at)
    select v.item_id,
      case when not exists (select 1 from inventory_items i where i.sku = v.sku and i.deleted_at is null) then v.sku end,
      v.title, true, ${at}::timestamptz, ${at}::timestamptz
    from unnest(${list(items)}::text[], ${list(managed.map((v) => v.sku))}::text[], ${list(managed.map((v) => v.title))}::text[])
      as v(item_id, sku, title)`);
  await tx.execute(sql`insert into inventory_levels (id, inventory_item_id, location_id, stocked_quantity, created_at, updated_at)
    select l.level_id, l.item_id, ${location}, l.quantity, ${at}::timestamptz, ${at}::timestamptz
    from unnest(${list(managed.map(() => newId('ilev')))}::text[], ${list(items)}::text[],
      ${list(managed.map((v) => v.inventory_quantity))}::int[]) as l(level_id, item_id, quantity)`);
  await tx.execute(sql`insert into product_variant_inventory_items (id, variant_id, inventory_item_id, required_quantity, created_at, updated_at)
    select k.link_id, k.variant_id, k.item_id, 1, ${at}::timestamptz, ${at}::timestamptz
    from unnest(${list(managed.map(() => newId('pvitem')))}::text[], ${list(managed.map((v) => v.id))}::text[],
      ${list(items)}::text[]) as k(link_id, variant_id, item_id)`);
}
