import { and, asc, eq, ilike, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { shippingOptions, shippingOptionTypes } from './tables.ts';
import { countRows } from '../../platform/db/count-rows.ts';
import { containsPattern } from '../../platform/db/like-pattern.ts';

export type TypeRow = typeof shippingOptionTypes.$inferSelect;

export interface TypeFilters {
  q?: string;
  id?: string[];
  label?: string[];
  code?: string[];
}

const within = (col: Parameters<typeof inArray>[0], list: string[] | undefined): SQL | undefined =>
  list === undefined ? undefined : list.length ? inArray(col, list) : sql`false`;

function typeWhere(f: TypeFilters): SQL | undefined {
  const like = f.q ? containsPattern(f.q) : undefined;
  return and(
    isNull(shippingOptionTypes.deleted_at),
    like ? or(ilike(shippingOptionTypes.label, like), ilike(shippingOptionTypes.code, like)) : undefined,
    within(shippingOptionTypes.id, f.id),
    within(shippingOptionTypes.label, f.label),
    within(shippingOptionTypes.code, f.code),
  );
}

export async function listTypeRows(db: Executor, f: TypeFilters, page: Page): Promise<TypeRow[]> {
  if (page.limit === 0) return [];
  return db
    .select()
    .from(shippingOptionTypes)
    .where(typeWhere(f))
    .orderBy(asc(shippingOptionTypes.created_at), asc(shippingOptionTypes.id))
    .limit(page.limit)
    .offset(page.offset);
}

export async function countTypes(db: Executor, f: TypeFilters): Promise<number> {
  return countRows(db, shippingOptionTypes, typeWhere(f));
}

export async function findLiveType(db: Executor, id: string): Promise<TypeRow | undefined> {
  const [row] = await db
    .select()
    .from(shippingOptionTypes)
    .where(and(eq(shippingOptionTypes.id, id), isNull(shippingOptionTypes.deleted_at)));
  return row;
}

export async function insertType(db: Executor, row: typeof shippingOptionTypes.$inferInsert): Promise<void> {
  await db.insert(shippingOptionTypes).values(row);
}

export async function updateTypeRow(
  db: Executor,
  id: string,
  patch: Partial<typeof shippingOptionTypes.$inferInsert>,
): Promise<void> {
  await db.update(shippingOptionTypes).set(patch).where(eq(shippingOptionTypes.id, id));
}

/** The copy of a type each option naming it keeps (`shipping_options.type`), rewritten with the type. */
export async function copyTypeToOptions(db: Executor, t: TypeRow, at: Date): Promise<void> {
  await db
    .update(shippingOptions)
    .set({ type: { label: t.label, code: t.code, description: t.description }, updated_at: at })
    .where(eq(shippingOptions.type_id, t.id));
}

export async function countLiveOptionsOfType(db: Executor, id: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(shippingOptions)
    .where(and(eq(shippingOptions.type_id, id), isNull(shippingOptions.deleted_at)));
  return Number(row.n);
}
