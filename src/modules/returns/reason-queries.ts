import { and, asc, count, eq, ilike, inArray, isNull, or, type SQL } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { returnReasons } from './tables.ts';
import { containsPattern } from '../../platform/db/like-pattern.ts';

export type ReasonRow = typeof returnReasons.$inferSelect;

export interface ReasonFilters {
  id?: string[];
  value?: string[];
  parent?: string[];
  q?: string;
}

const live = isNull(returnReasons.deleted_at);

function matching(f: ReasonFilters): SQL | undefined {
  const like = f.q ? containsPattern(f.q) : undefined;
  return and(
    live,
    f.id ? inArray(returnReasons.id, f.id) : undefined,
    f.value ? inArray(returnReasons.value, f.value) : undefined,
    f.parent ? inArray(returnReasons.parent_return_reason_id, f.parent) : undefined,
    like ? or(ilike(returnReasons.value, like), ilike(returnReasons.label, like)) : undefined,
  );
}

export async function listReasonRows(db: Executor, f: ReasonFilters, page: Page): Promise<ReasonRow[]> {
  return db
    .select()
    .from(returnReasons)
    .where(matching(f))
    .orderBy(asc(returnReasons.created_at), asc(returnReasons.id))
    .limit(page.limit)
    .offset(page.offset);
}

export async function countReasonRows(db: Executor, f: ReasonFilters): Promise<number> {
  const [row] = await db.select({ n: count() }).from(returnReasons).where(matching(f));
  return Number(row.n);
}

/** Live reasons by id (a deleted one is gone for every reader). */
export async function reasonsByIds(db: Executor, ids: string[]): Promise<ReasonRow[]> {
  if (!ids.length) return [];
  return db
    .select()
    .from(returnReasons)
    .where(and(live, inArray(returnReasons.id, ids)));
}

export async function childrenOf(db: Executor, parentIds: string[]): Promise<ReasonRow[]> {
  if (!parentIds.length) return [];
  return db
    .select()
    .from(returnReasons)
    .where(and(live, inArray(returnReasons.parent_return_reason_id, parentIds)))
    .orderBy(asc(returnReasons.created_at), asc(returnReasons.id));
}

export async function insertReason(db: Executor, row: ReasonRow): Promise<void> {
  await db.insert(returnReasons).values(row);
}

export async function updateReason(db: Executor, id: string, patch: Partial<ReasonRow>): Promise<void> {
  await db
    .update(returnReasons)
    .set(patch)
    .where(and(live, eq(returnReasons.id, id)));
}
