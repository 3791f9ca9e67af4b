import { inTx, type Ctx } from '../../platform/context.ts';
import type { Executor } from '../../platform/db/database.ts';
import { errors } from '../../platform/http/errors.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { newId } from '../../platform/ids.ts';
import { splitList } from '../sales-channels/service.ts';
import { getItem, type ItemView, itemNotFound, withLevels } from './item-view.ts';
import { createLevels } from './levels.ts';
import { itemIds, lockVariantsSelling } from './locks.ts';
import {
  countItems,
  deleteItemLevelsAndLinks,
  findLiveItem,
  type ItemFilters,
  insertItem,
  levelsOfItems,
  listItemRows,
  skuTaken,
  softDeleteItem,
  updateItemRow,
} from './queries.ts';
import type { CreateItemInput, UpdateItemInput } from './schema.ts';

export async function listItems(ctx: Ctx, filters: ItemFilters, page: Page) {
  const f = {
    ...filters,
    id: splitList(filters.id),
    sku: splitList(filters.sku),
    location_id: splitList(filters.location_id),
  };
  const [found, count] = await Promise.all([listItemRows(ctx.db, f, page), countItems(ctx.db, f)]);
  return { inventory_items: await withLevels(ctx.db, found), count };
}

async function checkSku(db: Executor, sku: string | null | undefined, except?: string) {
  if (sku && (await skuTaken(db, sku, except))) throw errors.invalid('inventory_item_sku_taken', { sku });
}

type ItemFields = Omit<CreateItemInput, 'location_levels'>;

function fieldsOf(input: ItemFields) {
  const { origin_country, ...rest } = input;
  return {
    ...rest,
    ...(origin_country !== undefined ? { origin_country: origin_country?.toLowerCase() ?? null } : {}),
  };
}

export async function createItem(ctx: Ctx, input: CreateItemInput): Promise<ItemView> {
  return inTx(ctx, async ({ tx, clock }) => {
    const at = clock.now();
    await checkSku(tx, input.sku);
    const { location_levels, ...fields } = input;
    const id = newId('iitem');
    await insertItem(tx, { id, ...fieldsOf(fields), created_at: at, updated_at: at });
    if (location_levels?.length) await createLevels(tx, id, location_levels, at);
    return getItem(tx, id);
  });
}

export async function updateItem(ctx: Ctx, id: string, input: UpdateItemInput): Promise<ItemView> {
  return inTx(ctx, async ({ tx, clock }) => {
    if (!(await findLiveItem(tx, id, true))) throw itemNotFound(id);
    await checkSku(tx, input.sku, id);
    await updateItemRow(tx, id, { ...fieldsOf(input), updated_at: clock.now() });
    return getItem(tx, id);
  });
}

/**
 * Soft delete with the item's levels and variant links (the variants selling it stop counting
 * it). An item with reserved stock cannot go: its orders still need it.
 */
export async function deleteItem(ctx: Ctx, id: string) {
  await inTx(ctx, async ({ tx, clock }) => {
    await lockVariantsSelling(tx, itemIds([id]));
    if (!(await findLiveItem(tx, id, true))) throw itemNotFound(id);
    const levels = await levelsOfItems(tx, [id]);
    if (levels.some((l) => l.reserved_quantity > 0)) throw errors.notAllowed('inventory_item_has_reservations', { id });
    await softDeleteItem(tx, id, clock.now());
    await deleteItemLevelsAndLinks(tx, id);
  });
  return { id, object: 'inventory_item' as const, deleted: true as const };
}
