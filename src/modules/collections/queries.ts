import { and, eq, ilike, inArray, isNull, or, type SQL } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.ts';
import { countRows, findLiveRow, isLiveValueTaken, rowsPage } from '../../platform/db/live-rows.ts';
import { containsPattern } from '../../platform/db/like-pattern.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { productCollections } from './tables.ts';

export type CollectionRow = typeof productCollections.$inferSelect;

export interface CollectionFilters {
  q?: string;
  id?: string[];
  handle?: string[];
  title?: string[];
}

function liveMatching(f: CollectionFilters): SQL | undefined {
  const pattern = containsPattern(f.q ?? '');
  return and(
    isNull(productCollections.deleted_at),
    f.q ? or(ilike(productCollections.title, pattern), ilike(productCollections.handle, pattern)) : undefined,
    f.id ? inArray(productCollections.id, f.id) : undefined,
    f.handle ? inArray(productCollections.handle, f.handle) : undefined,
    f.title ? inArray(productCollections.title, f.title) : undefined,
  );
}

export function listCollectionRows(db: Executor, f: CollectionFilters, page: Page): Promise<CollectionRow[]> {
  return rowsPage(db, productCollections, liveMatching(f), page);
}

export function countCollections(db: Executor, f: CollectionFilters): Promise<number> {
  return countRows(db, productCollections, liveMatching(f));
}

export function findLiveCollection(db: Executor, id: string, lock = false): Promise<CollectionRow | undefined> {
  return findLiveRow(db, productCollections, id, lock ? 'update' : undefined);
}

export function isCollectionHandleTaken(db: Executor, handle: string, exceptId?: string): Promise<boolean> {
  return isLiveValueTaken(db, productCollections, productCollections.handle, handle, exceptId);
}

export async function insertCollection(db: Executor, row: CollectionRow): Promise<void> {
  await db.insert(productCollections).values(row);
}

export async function updateCollectionRow(db: Executor, id: string, patch: Partial<CollectionRow>): Promise<void> {
  await db.update(productCollections).set(patch).where(eq(productCollections.id, id));
}
