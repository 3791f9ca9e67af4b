import { and, asc, eq, ilike, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { productVariants } from '../products/tables.ts';
import { priceListPrices, priceLists } from './tables.ts';
import { countRows } from '../../platform/db/count-rows.ts';
import { containsPattern } from '../../platform/db/like-pattern.ts';

export type PriceListRow = typeof priceLists.$inferSelect;
export type PriceRow = typeof priceListPrices.$inferSelect;

export interface PriceListFilters {
  q?: string;
  id?: string[];
  status?: string[];
}

function liveMatching(f: PriceListFilters): SQL | undefined {
  const pattern = containsPattern(f.q ?? '');
  return and(
    isNull(priceLists.deleted_at),
    f.q ? or(ilike(priceLists.title, pattern), ilike(priceLists.description, pattern)) : undefined,
    f.id ? inArray(priceLists.id, f.id) : undefined,
    f.status ? inArray(priceLists.status, f.status as PriceListRow['status'][]) : undefined,
  );
}

export function listPriceListRows(db: Executor, f: PriceListFilters, page: Page): Promise<PriceListRow[]> {
  return db
    .select()
    .from(priceLists)
    .where(liveMatching(f))
    .orderBy(asc(priceLists.id))
    .limit(page.limit)
    .offset(page.offset);
}

export async function countPriceLists(db: Executor, f: PriceListFilters): Promise<number> {
  return countRows(db, priceLists, liveMatching(f));
}

export async function findLivePriceList(db: Executor, id: string, lock = false): Promise<PriceListRow | undefined> {
  const q = db
    .select()
    .from(priceLists)
    .where(and(eq(priceLists.id, id), isNull(priceLists.deleted_at)));
  const [row] = lock ? await q.for('update') : await q;
  return row;
}

export async function insertPriceList(db: Executor, row: PriceListRow): Promise<void> {
  await db.insert(priceLists).values(row);
}

export async function updatePriceListRow(db: Executor, id: string, patch: Partial<PriceListRow>): Promise<void> {
  await db.update(priceLists).set(patch).where(eq(priceLists.id, id));
}

export async function softDeletePriceList(db: Executor, id: string, now: Date): Promise<void> {
  await db.update(priceLists).set({ deleted_at: now, updated_at: now }).where(eq(priceLists.id, id));
  await db.delete(priceListPrices).where(eq(priceListPrices.price_list_id, id));
}

/** The prices of each of `listIds` (one query for a page of lists), oldest first. */
export async function pricesOfLists(db: Executor, listIds: string[]): Promise<Map<string, PriceRow[]>> {
  const out = new Map<string, PriceRow[]>();
  if (!listIds.length) return out;
  const found = await db
    .select()
    .from(priceListPrices)
    .where(inArray(priceListPrices.price_list_id, listIds))
    .orderBy(asc(priceListPrices.price_list_id), asc(priceListPrices.id));
  for (const r of found) out.set(r.price_list_id, [...(out.get(r.price_list_id) ?? []), r]);
  return out;
}

export function listPriceRows(db: Executor, listId: string, variantIds: string[] | undefined, page: Page) {
  return db
    .select()
    .from(priceListPrices)
    .where(
      and(
        eq(priceListPrices.price_list_id, listId),
        variantIds ? inArray(priceListPrices.variant_id, variantIds) : undefined,
      ),
    )
    .orderBy(asc(priceListPrices.id))
    .limit(page.limit)
    .offset(page.offset);
}

export async function countPriceRows(db: Executor, listId: string, variantIds: string[] | undefined) {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(priceListPrices)
    .where(
      and(
        eq(priceListPrices.price_list_id, listId),
        variantIds ? inArray(priceListPrices.variant_id, variantIds) : undefined,
      ),
    );
  return Number(row.n);
}

export function pricesByIds(db: Executor, listId: string, ids: string[]): Promise<PriceRow[]> {
  if (!ids.length) return Promise.resolve([]);
  return db
    .select()
    .from(priceListPrices)
    .where(and(eq(priceListPrices.price_list_id, listId), inArray(priceListPrices.id, ids)))
    .orderBy(asc(priceListPrices.id));
}

export async function insertPrices(db: Executor, rows: PriceRow[]): Promise<void> {
  if (rows.length) await db.insert(priceListPrices).values(rows);
}

export async function updatePriceRow(db: Executor, id: string, patch: Partial<PriceRow>): Promise<void> {
  await db.update(priceListPrices).set(patch).where(eq(priceListPrices.id, id));
}

export async function deletePrices(db: Executor, listId: string, ids: string[]): Promise<void> {
  if (!ids.length) return;
  await db
    .delete(priceListPrices)
    .where(and(eq(priceListPrices.price_list_id, listId), inArray(priceListPrices.id, ids)));
}

/** The list's prices of the variants of `productIds` (Medusa's "remove products"). */
export async function deletePricesOfProducts(db: Executor, listId: string, productIds: string[]): Promise<void> {
  await db
    .delete(priceListPrices)
    .where(
      and(
        eq(priceListPrices.price_list_id, listId),
        inArray(
          priceListPrices.variant_id,
          db
            .select({ id: productVariants.id })
            .from(productVariants)
            .where(inArray(productVariants.product_id, productIds)),
        ),
      ),
    );
}

/** The ids among `ids` that name live variants (products module's table, read only). */
export async function liveVariantIds(db: Executor, ids: string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const found = await db
    .select({ id: productVariants.id })
    .from(productVariants)
    .where(and(inArray(productVariants.id, ids), isNull(productVariants.deleted_at)));
  return new Set(found.map((r) => r.id));
}
