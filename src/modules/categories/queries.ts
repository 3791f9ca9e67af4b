import { and, asc, eq, gt, gte, isNull, ne, sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.ts';
import { findLiveRow, isLiveValueTaken } from '../../platform/db/live-rows.ts';
import { categories } from './tables.ts';

export type CategoryRow = typeof categories.$inferSelect;

/**
 * Every live category (the store's: active and not internal only). A shop has tens to a few
 * thousand; trees, filters and pages are then shaped in memory (tree.ts) in one pass.
 */
export async function listLiveCategories(db: Executor, storeOnly: boolean): Promise<CategoryRow[]> {
  return db
    .select()
    .from(categories)
    .where(
      and(
        isNull(categories.deleted_at),
        storeOnly ? eq(categories.is_active, true) : undefined,
        storeOnly ? eq(categories.is_internal, false) : undefined,
      ),
    )
    .orderBy(asc(categories.rank), asc(categories.id));
}

export function findLiveCategory(db: Executor, id: string, lock = false): Promise<CategoryRow | undefined> {
  return findLiveRow(db, categories, id, lock ? 'update' : undefined);
}

export function isCategoryHandleTaken(db: Executor, handle: string, exceptId?: string): Promise<boolean> {
  return isLiveValueTaken(db, categories, categories.handle, handle, exceptId);
}

/** The live children of `parentId` (null: the roots), but for `except` (a category being moved). */
const siblingsOf = (parentId: string | null, except?: string) =>
  and(
    isNull(categories.deleted_at),
    parentId === null ? isNull(categories.parent_category_id) : eq(categories.parent_category_id, parentId),
    except ? ne(categories.id, except) : undefined,
  );

/** Locks the live children of `parentId` (null: the roots) and returns how many there are. */
export async function lockSiblings(db: Executor, parentId: string | null, except?: string): Promise<number> {
  const found = await db
    .select({ id: categories.id })
    .from(categories)
    .where(siblingsOf(parentId, except))
    .for('update');
  return found.length;
}

/** Opens a gap at `rank` among the children of `parentId`. */
export async function shiftRanksUp(db: Executor, parentId: string | null, rank: number, except?: string) {
  await db
    .update(categories)
    .set({ rank: sql`${categories.rank} + 1` })
    .where(and(siblingsOf(parentId, except), gte(categories.rank, rank)));
}

/** Closes the gap a category left at `rank`. */
export async function shiftRanksDown(db: Executor, parentId: string | null, rank: number): Promise<void> {
  await db
    .update(categories)
    .set({ rank: sql`${categories.rank} - 1` })
    .where(and(siblingsOf(parentId), gt(categories.rank, rank)));
}

export async function hasLiveChildren(db: Executor, id: string): Promise<boolean> {
  const [row] = await db.select({ id: categories.id }).from(categories).where(siblingsOf(id)).limit(1);
  return !!row;
}

export async function insertCategory(db: Executor, row: CategoryRow): Promise<void> {
  await db.insert(categories).values(row);
}

export async function updateCategoryRow(db: Executor, id: string, patch: Partial<CategoryRow>): Promise<void> {
  await db.update(categories).set(patch).where(eq(categories.id, id));
}
