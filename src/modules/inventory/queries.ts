import { and, asc, eq, ilike, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import { type Executor, rows } from '../../platform/db/database.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { inventoryItems, inventoryLevels } from './tables.ts';
import { stockLocations as sl } from '../stock-locations/tables.ts';
import { listFilter } from '../../platform/db/list-filter.ts';
import { countRows } from '../../platform/db/count-rows.ts';
import { containsPattern } from '../../platform/db/like-pattern.ts';

export type ItemRow = typeof inventoryItems.$inferSelect;
export type LevelRow = typeof inventoryLevels.$inferSelect;

export interface ItemFilters {
  q?: string;
  id?: string[];
  sku?: string[];
  requires_shipping?: boolean;
  location_id?: string[];
}

function liveMatching(f: ItemFilters): SQL | undefined {
  const pattern = f.q ? containsPattern(f.q) : '';
  return and(
    isNull(inventoryItems.deleted_at),
    f.q
      ? or(
          ilike(inventoryItems.sku, pattern),
          ilike(inventoryItems.title, pattern),
          ilike(inventoryItems.description, pattern),
        )
      : undefined,
    f.id ? inArray(inventoryItems.id, f.id) : undefined,
    f.sku ? inArray(inventoryItems.sku, f.sku) : undefined,
    f.requires_shipping === undefined ? undefined : eq(inventoryItems.requires_shipping, f.requires_shipping),
    listFilter(f.location_id, (ids) =>
      inArray(inventoryItems.id, sql`(select inventory_item_id from inventory_levels where location_id in ${ids})`),
    ),
  );
}

export async function listItemRows(db: Executor, f: ItemFilters, page: Page): Promise<ItemRow[]> {
  return db
    .select()
    .from(inventoryItems)
    .where(liveMatching(f))
    .orderBy(asc(inventoryItems.id))
    .limit(page.limit)
    .offset(page.offset);
}

export async function countItems(db: Executor, f: ItemFilters): Promise<number> {
  return countRows(db, inventoryItems, liveMatching(f));
}

export async function findLiveItem(db: Executor, id: string, lock = false): Promise<ItemRow | undefined> {
  const q = db
    .select()
    .from(inventoryItems)
    .where(and(eq(inventoryItems.id, id), isNull(inventoryItems.deleted_at)));
  const [row] = lock ? await q.for('update') : await q;
  return row;
}

export async function findLiveItemIds(db: Executor, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const found = await db
    .select({ id: inventoryItems.id })
    .from(inventoryItems)
    .where(and(inArray(inventoryItems.id, ids), isNull(inventoryItems.deleted_at)))
    .for('share');
  return found.map((r) => r.id);
}

export async function skuTaken(db: Executor, sku: string, except?: string): Promise<boolean> {
  const found = await rows<{ id: string }>(
    db,
    sql`select id from inventory_items where sku = ${sku} and deleted_at is null ${except ? sql`and id <> ${except}` : sql``} limit 1`,
  );
  return found.length > 0;
}

export async function insertItem(db: Executor, row: typeof inventoryItems.$inferInsert): Promise<void> {
  await db.insert(inventoryItems).values(row);
}

export async function updateItemRow(
  db: Executor,
  id: string,
  patch: Partial<typeof inventoryItems.$inferInsert> & { updated_at: Date },
): Promise<void> {
  await db.update(inventoryItems).set(patch).where(eq(inventoryItems.id, id));
}

export async function softDeleteItem(db: Executor, id: string, at: Date): Promise<void> {
  await db.update(inventoryItems).set({ deleted_at: at, updated_at: at }).where(eq(inventoryItems.id, id));
}

/** Every level of these items, by item then location (one query for a page of items). */
export async function levelsOfItems(db: Executor, itemIds: string[], locationIds?: string[]): Promise<LevelRow[]> {
  if (itemIds.length === 0) return [];
  return db
    .select()
    .from(inventoryLevels)
    .where(
      and(
        inArray(inventoryLevels.inventory_item_id, itemIds),
        locationIds ? inArray(inventoryLevels.location_id, locationIds) : undefined,
      ),
    )
    .orderBy(asc(inventoryLevels.inventory_item_id), asc(inventoryLevels.location_id));
}

export async function pageOfLevels(db: Executor, itemId: string, locationIds: string[] | undefined, page: Page) {
  const where = and(
    eq(inventoryLevels.inventory_item_id, itemId),
    locationIds ? inArray(inventoryLevels.location_id, locationIds) : undefined,
  );
  const [found, [count]] = await Promise.all([
    db
      .select()
      .from(inventoryLevels)
      .where(where)
      .orderBy(asc(inventoryLevels.location_id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: sql<number>`count(*)::int` }).from(inventoryLevels).where(where),
  ]);
  return { found, count: count.n };
}

/** The item's levels, row-locked in location order (every writer of levels locks them so). */
export async function lockLevels(db: Executor, itemId: string): Promise<LevelRow[]> {
  return db
    .select()
    .from(inventoryLevels)
    .where(eq(inventoryLevels.inventory_item_id, itemId))
    .orderBy(asc(inventoryLevels.location_id))
    .for('update');
}

export async function insertLevels(db: Executor, values: (typeof inventoryLevels.$inferInsert)[]): Promise<LevelRow[]> {
  if (values.length === 0) return [];
  return db.insert(inventoryLevels).values(values).returning();
}

export async function updateLevelRow(
  db: Executor,
  id: string,
  patch: { stocked_quantity?: number; incoming_quantity?: number; updated_at: Date },
): Promise<LevelRow> {
  const [row] = await db.update(inventoryLevels).set(patch).where(eq(inventoryLevels.id, id)).returning();
  return row;
}

export async function deleteLevelRows(db: Executor, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.delete(inventoryLevels).where(inArray(inventoryLevels.id, ids));
}

export async function deleteItemLevelsAndLinks(db: Executor, itemId: string): Promise<void> {
  await db.delete(inventoryLevels).where(eq(inventoryLevels.inventory_item_id, itemId));
  await db.execute(sql`delete from product_variant_inventory_items where inventory_item_id = ${itemId}`);
}

/** Which of these ids are live stock locations. */
export async function findLiveLocationIds(db: Executor, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const found = await rows<{ id: string }>(
    db,
    sql`select ${sl.id} from ${sl} where ${sl.id} = any(${sql.param(ids)}::text[]) and ${sl.deleted_at} is null for share`,
  );
  return found.map((r) => r.id);
}

/** The item and location of each of these levels, by level id. */
export async function itemsOfLevels(db: Executor, levelIds: string[]) {
  if (levelIds.length === 0) return new Map<string, { item: string; location: string }>();
  const found = await db
    .select({ id: inventoryLevels.id, item: inventoryLevels.inventory_item_id, location: inventoryLevels.location_id })
    .from(inventoryLevels)
    .where(inArray(inventoryLevels.id, levelIds));
  return new Map(found.map((r) => [r.id, { item: r.item, location: r.location }]));
}
