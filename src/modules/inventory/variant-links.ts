import { sql } from 'drizzle-orm';
import { inTx, type Ctx } from '../../platform/context.ts';
import { type Executor, rows } from '../../platform/db/database.ts';
import { errors } from '../../platform/http/errors.ts';
import { newId } from '../../platform/ids.ts';
import { productVariants as pv } from '../products/tables.ts';
import { findLiveItemIds } from './queries.ts';
import type { BatchVariantItemsInput } from './schema.ts';

/**
 * Which inventory items a variant sells, and how many of each per unit (a kit needs several).
 * The variant rows are locked first (in id order), as the checkout's decrement locks them; the
 * link triggers then recompute each variant's `inventory_quantity`.
 */

interface LinkRow {
  id: string;
  variant_id: string;
  inventory_item_id: string;
  required_quantity: number;
}

async function lockProductVariants(db: Executor, productId: string, variantIds: string[]): Promise<Set<string>> {
  const found = await rows<{ id: string }>(
    db,
    sql`select ${pv.id} from ${pv} where ${pv.id} = any(${sql.param(variantIds)}::text[])
        and ${pv.product_id} = ${productId} and ${pv.deleted_at} is null order by ${pv.id} for update`,
  );
  return new Set(found.map((r) => r.id));
}

async function insertLink(db: Executor, l: Omit<LinkRow, 'id'>, at: Date): Promise<LinkRow | undefined> {
  const [row] = await rows<LinkRow>(
    db,
    sql`insert into product_variant_inventory_items (id, variant_id, inventory_item_id, required_quantity, created_at, updated_at)
        values (${newId('pvitem')}, ${l.variant_id}, ${l.inventory_item_id}, ${l.required_quantity}, ${at.toISOString()}::timestamptz, ${at.toISOString()}::timestamptz)
        on conflict (variant_id, inventory_item_id) do nothing
        returning id, variant_id, inventory_item_id, required_quantity`,
  );
  return row;
}

async function updateLink(db: Executor, l: Omit<LinkRow, 'id'>, at: Date): Promise<LinkRow | undefined> {
  const [row] = await rows<LinkRow>(
    db,
    sql`update product_variant_inventory_items set required_quantity = ${l.required_quantity}, updated_at = ${at.toISOString()}::timestamptz
        where variant_id = ${l.variant_id} and inventory_item_id = ${l.inventory_item_id}
        returning id, variant_id, inventory_item_id, required_quantity`,
  );
  return row;
}

async function deleteLink(db: Executor, variantId: string, itemId: string): Promise<boolean> {
  const gone = await rows<{ id: string }>(
    db,
    sql`delete from product_variant_inventory_items where variant_id = ${variantId} and inventory_item_id = ${itemId} returning id`,
  );
  return gone.length > 0;
}

/** Creates, updates and deletes links of a product's variants together, or nothing on any error. */
export async function batchVariantItems(ctx: Ctx, productId: string, input: BatchVariantItemsInput) {
  const create = input.create ?? [];
  const update = input.update ?? [];
  const remove = input.delete ?? [];
  const all = [...create, ...update, ...remove];
  return inTx(ctx, async ({ tx, clock }) => {
    const at = clock.now();
    const variants = await lockProductVariants(tx, productId, [...new Set(all.map((l) => l.variant_id))].sort());
    const strayVariants = all.filter((l) => !variants.has(l.variant_id)).map((l) => l.variant_id);
    if (strayVariants.length)
      throw errors.notFound('variant_links_variants_missing', {
        ids: [...new Set(strayVariants)].join(', '),
        product: productId,
      });
    const items = new Set(await findLiveItemIds(tx, [...new Set(all.map((l) => l.inventory_item_id))].sort()));
    const strayItems = all.filter((l) => !items.has(l.inventory_item_id)).map((l) => l.inventory_item_id);
    if (strayItems.length)
      throw errors.notFound('inventory_items_missing', { ids: [...new Set(strayItems)].join(', ') });

    const deleted = [];
    for (const l of remove) {
      if (!(await deleteLink(tx, l.variant_id, l.inventory_item_id)))
        throw errors.notFound('variant_item_link_not_found', { variant: l.variant_id, item: l.inventory_item_id });
      deleted.push({ variant_id: l.variant_id, inventory_item_id: l.inventory_item_id });
    }
    const updated = [];
    for (const l of update) {
      const row = await updateLink(tx, l, at);
      if (!row)
        throw errors.notFound('variant_item_link_not_found', { variant: l.variant_id, item: l.inventory_item_id });
      updated.push(row);
    }
    const created = [];
    for (const l of create) {
      const row = await insertLink(tx, l, at);
      if (!row) throw errors.invalid('variant_item_link_exists', { variant: l.variant_id, item: l.inventory_item_id });
      created.push(row);
    }
    return { created, updated, deleted };
  });
}
