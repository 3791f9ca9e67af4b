import { and, asc, count, eq, ilike, inArray, isNull, ne, or, type SQL } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { refundReasons } from './tables.ts';
import { containsPattern } from '../../platform/db/like-pattern.ts';

export type RefundReasonRow = typeof refundReasons.$inferSelect;

export interface RefundReasonFilters {
  id?: string[];
  code?: string[];
  q?: string;
}

const live = isNull(refundReasons.deleted_at);

function matching(f: RefundReasonFilters): SQL | undefined {
  const like = f.q ? containsPattern(f.q) : undefined;
  return and(
    live,
    f.id ? inArray(refundReasons.id, f.id) : undefined,
    f.code ? inArray(refundReasons.code, f.code) : undefined,
    like ? or(ilike(refundReasons.code, like), ilike(refundReasons.label, like)) : undefined,
  );
}

export function listRefundReasonRows(db: Executor, f: RefundReasonFilters, page: Page): Promise<RefundReasonRow[]> {
  return db
    .select()
    .from(refundReasons)
    .where(matching(f))
    .orderBy(asc(refundReasons.created_at), asc(refundReasons.id))
    .limit(page.limit)
    .offset(page.offset);
}

export async function countRefundReasonRows(db: Executor, f: RefundReasonFilters): Promise<number> {
  const [row] = await db.select({ n: count() }).from(refundReasons).where(matching(f));
  return Number(row.n);
}

export async function findRefundReason(db: Executor, id: string): Promise<RefundReasonRow | undefined> {
  const [row] = await db
    .select()
    .from(refundReasons)
    .where(and(live, eq(refundReasons.id, id)));
  return row;
}

/** Whether a live reason other than `exceptId` has this code. */
export async function isCodeTaken(db: Executor, code: string, exceptId?: string): Promise<boolean> {
  const [row] = await db
    .select({ id: refundReasons.id })
    .from(refundReasons)
    .where(and(live, eq(refundReasons.code, code), exceptId ? ne(refundReasons.id, exceptId) : undefined))
    .limit(1);
  return !!row;
}

export async function insertRefundReason(db: Executor, row: RefundReasonRow): Promise<void> {
  await db.insert(refundReasons).values(row);
}

export async function updateRefundReasonRow(
  db: Executor,
  id: string,
  patch: Partial<RefundReasonRow>,
): Promise<RefundReasonRow | undefined> {
  const [row] = await db
    .update(refundReasons)
    .set(patch)
    .where(and(live, eq(refundReasons.id, id)))
    .returning();
  return row;
}
