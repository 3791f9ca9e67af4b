import { inTx, type Ctx, type TxCtx } from '../../platform/context.ts';
import type { Tx } from '../../platform/db/database.ts';
import { errors } from '../../platform/http/errors.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { newId } from '../../platform/ids.ts';
import { splitList } from '../sales-channels/service.ts';
import { itemIds, lockVariantsSelling } from './locks.ts';
import {
  deleteLevelRows,
  itemsOfLevels,
  findLiveItem,
  findLiveLocationIds,
  insertLevels,
  type LevelRow,
  lockLevels,
  pageOfLevels,
  updateLevelRow,
} from './queries.ts';
import type { BatchItemsLevelsInput, BatchLevelsInput, CreateLevelInput, UpdateLevelInput } from './schema.ts';
import { getItem, itemNotFound, levelView } from './item-view.ts';

/**
 * An item's levels: one per location, created, changed and removed by the operator. Each write
 * locks the variants selling the item, then the item's levels in location order (see locks.ts),
 * so it never deadlocks with a checkout; triggers then refresh the variants' numbers.
 */

async function lockItem(tx: Tx, id: string): Promise<LevelRow[]> {
  await lockVariantsSelling(tx, itemIds([id]));
  if (!(await findLiveItem(tx, id, true))) throw itemNotFound(id);
  return lockLevels(tx, id);
}

export async function createLevels(tx: Tx, itemId: string, input: CreateLevelInput[], at: Date): Promise<LevelRow[]> {
  const wanted = input.map((l) => l.location_id);
  if (new Set(wanted).size !== wanted.length) throw errors.invalid('inventory_level_location_repeated');
  const live = new Set(await findLiveLocationIds(tx, wanted));
  const missing = wanted.filter((l) => !live.has(l));
  if (missing.length) throw errors.invalid('inventory_level_locations_missing', { ids: missing.join(', ') });
  const existing = new Set((await lockLevels(tx, itemId)).map((l) => l.location_id));
  const dup = wanted.filter((l) => existing.has(l));
  if (dup.length) throw errors.invalid('inventory_level_exists', { item: itemId, locations: dup.join(', ') });
  return insertLevels(
    tx,
    input.map((l) => ({
      id: newId('ilev'),
      inventory_item_id: itemId,
      location_id: l.location_id,
      stocked_quantity: l.stocked_quantity ?? 0,
      incoming_quantity: l.incoming_quantity ?? 0,
      created_at: at,
      updated_at: at,
    })),
  );
}

export async function listLevels(ctx: Ctx, itemId: string, locationIds: string[] | undefined, page: Page) {
  if (!(await findLiveItem(ctx.db, itemId))) throw itemNotFound(itemId);
  const { found, count } = await pageOfLevels(ctx.db, itemId, splitList(locationIds), page);
  return { inventory_levels: found.map(levelView), count };
}

export async function addLevel(ctx: Ctx, itemId: string, input: CreateLevelInput) {
  return inTx(ctx, async ({ tx, clock }) => {
    await lockItem(tx, itemId);
    await createLevels(tx, itemId, [input], clock.now());
    return getItem(tx, itemId);
  });
}

function levelAt(levels: LevelRow[], itemId: string, locationId: string): LevelRow {
  const level = levels.find((l) => l.location_id === locationId);
  if (!level) throw errors.notFound('inventory_level_not_found', { item: itemId, location: locationId });
  return level;
}

/** Stock below what is reserved would promise units that are not there. */
function checkedUpdate(level: LevelRow, input: UpdateLevelInput) {
  if (input.stocked_quantity !== undefined && input.stocked_quantity < level.reserved_quantity)
    throw errors.notAllowed('inventory_level_below_reserved', {
      stocked: input.stocked_quantity,
      reserved: level.reserved_quantity,
      location: level.location_id,
    });
  return input;
}

export async function updateLevel(ctx: Ctx, itemId: string, locationId: string, input: UpdateLevelInput) {
  return inTx(ctx, async ({ tx, clock }) => {
    const level = levelAt(await lockItem(tx, itemId), itemId, locationId);
    await updateLevelRow(tx, level.id, { ...checkedUpdate(level, input), updated_at: clock.now() });
    return getItem(tx, itemId);
  });
}

function checkedDelete(level: LevelRow, force: boolean) {
  if (level.reserved_quantity > 0)
    throw errors.notAllowed('inventory_level_reserved', {
      location: level.location_id,
      reserved: level.reserved_quantity,
    });
  if (level.stocked_quantity > 0 && !force)
    throw errors.notAllowed('inventory_level_stocked', {
      location: level.location_id,
      stocked: level.stocked_quantity,
    });
  return level.id;
}

export async function deleteLevel(ctx: Ctx, itemId: string, locationId: string) {
  return inTx(ctx, async ({ tx }) => {
    const level = levelAt(await lockItem(tx, itemId), itemId, locationId);
    await deleteLevelRows(tx, [checkedDelete(level, true)]);
    return {
      id: level.id,
      object: 'inventory-level' as const,
      deleted: true as const,
      parent: await getItem(tx, itemId),
    };
  });
}

async function batchOne({ tx, clock }: TxCtx, itemId: string, input: BatchLevelsInput) {
  const at = clock.now();
  const levels = await lockItem(tx, itemId);
  const deleted = (input.delete ?? []).map((loc) => levelAt(levels, itemId, loc));
  await deleteLevelRows(
    tx,
    deleted.map((l) => checkedDelete(l, input.force ?? false)),
  );
  const updated: LevelRow[] = [];
  for (const u of input.update ?? []) {
    const { location_id, ...patch } = u;
    const level = levelAt(levels, itemId, location_id);
    updated.push(await updateLevelRow(tx, level.id, { ...checkedUpdate(level, patch), updated_at: at }));
  }
  const created = await createLevels(tx, itemId, input.create ?? [], at);
  return { created: created.map(levelView), updated: updated.map(levelView), deleted: deleted.map((l) => l.id) };
}

/** Creates, updates and deletes one item's levels together: all of them, or none. */
export async function batchLevels(ctx: Ctx, itemId: string, input: BatchLevelsInput) {
  return inTx(ctx, (tctx) => batchOne(tctx, itemId, input));
}

/**
 * The same for several items (Medusa's `POST /inventory-items/location-levels/batch`): every
 * variant selling any of them is locked first, in one ordered statement, then item by item.
 */
export async function batchItemsLevels(ctx: Ctx, input: BatchItemsLevelsInput) {
  return inTx(ctx, async (tctx) => {
    const owners = await itemsOfLevels(tctx.tx, input.delete ?? []);
    const unknown = (input.delete ?? []).filter((l) => !owners.has(l));
    if (unknown.length) throw errors.notFound('inventory_levels_missing', { ids: unknown.join(', ') });
    const per = new Map<string, BatchLevelsInput>();
    const of = (item: string) => per.get(item) ?? per.set(item, { create: [], update: [], delete: [] }).get(item)!;
    for (const { inventory_item_id, ...l } of input.create ?? []) of(inventory_item_id).create!.push(l);
    for (const { inventory_item_id, id: _id, ...l } of input.update ?? []) of(inventory_item_id).update!.push(l);
    for (const [level, { item, location }] of owners)
      if (input.delete?.includes(level)) of(item).delete!.push(location);
    const items = [...per.keys()].sort();
    await lockVariantsSelling(tctx.tx, itemIds(items));
    const result = { created: [], updated: [], deleted: [] } as Awaited<ReturnType<typeof batchOne>>;
    for (const item of items) {
      const one = await batchOne(tctx, item, { ...per.get(item)!, force: input.force });
      result.created.push(...one.created);
      result.updated.push(...one.updated);
      result.deleted.push(...one.deleted);
    }
    return result;
  });
}
