import { and, asc, eq, ilike, inArray, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { productCollections } from './tables.ts';

export type CollectionRow = typeof productCollections.$inferSelect;

export interface CollectionFilters {
  q?: string;
  id?: string[];
  handle?: string[];
  title?: string[];
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, '\\$&');

function liveMatching(f: CollectionFilters): SQL | undefined {
  const pattern = `%${escapeLike(f.q ?? '')}%`;
  return and(
    isNull(productCollections.deleted_at),
    f.q ? or(ilike(productCollections.title, pattern), ilike(productCollections.handle, pattern)) : undefined,
    f.id ? inArray(productCollections.id, f.id) : undefined,
    f.handle ? inArray(productCollections.handle, f.handle) : undefined,
    f.title ? inArray(productCollections.title, f.title) : undefined,
  );
}

export async function listCollectionRows(db: Executor, f: CollectionFilters, page: Page): Promise<CollectionRow[]> {
  return db
    .select()
    .from(productCollections)
    .where(liveMatching(f))
    .orderBy(asc(productCollections.id))
    .limit(page.limit)
    .offset(page.offset);
}

export async function countCollections(db: Executor, f: CollectionFilters): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(productCollections).where(liveMatching(f));
  return row.n;
}

export async function findLiveCollection(db: Executor, id: string, lock = false): Promise<CollectionRow | undefined> {
  const q = db
    .select()
    .from(productCollections)
    .where(and(eq(productCollections.id, id), isNull(productCollections.deleted_at)));
  const [row] = lock ? await q.for('update') : await q;
  return row;
}

export async function isCollectionHandleTaken(db: Executor, handle: string, exceptId?: string): Promise<boolean> {
  const [row] = await db
    .select({ id: productCollections.id })
    .from(productCollections)
    .where(
      and(
        eq(productCollections.handle, handle),
        isNull(productCollections.deleted_at),
        exceptId ? ne(productCollections.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  return !!row;
}

export async function insertCollection(db: Executor, row: CollectionRow): Promise<void> {
  await db.insert(productCollections).values(row);
}

export async function updateCollectionRow(db: Executor, id: string, patch: Partial<CollectionRow>): Promise<void> {
  await db.update(productCollections).set(patch).where(eq(productCollections.id, id));
}
