import { and, eq, ilike, inArray, isNull, or, type SQL } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.ts';
import { insertRow } from '../../platform/db/insert-row.ts';
import { countRows, findLiveRow, rowsPage, liveIdsAmong } from '../../platform/db/live-rows.ts';
import { containsPattern } from '../../platform/db/like-pattern.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { apiKeySalesChannels } from '../api-keys/tables.ts';
import { productSalesChannels, products } from '../products/tables.ts';
import { salesChannels } from './tables.ts';

export type SalesChannelRow = typeof salesChannels.$inferSelect;

export interface SalesChannelFilters {
  q?: string;
  id?: string[];
  name?: string[];
  is_disabled?: boolean;
}

function liveMatching(f: SalesChannelFilters): SQL | undefined {
  const pattern = f.q ? containsPattern(f.q) : '';
  return and(
    isNull(salesChannels.deleted_at),
    f.q ? or(ilike(salesChannels.name, pattern), ilike(salesChannels.description, pattern)) : undefined,
    f.id ? inArray(salesChannels.id, f.id) : undefined,
    f.name ? inArray(salesChannels.name, f.name) : undefined,
    f.is_disabled === undefined ? undefined : eq(salesChannels.is_disabled, f.is_disabled),
  );
}

export function listSalesChannelRows(
  db: Executor,
  filters: SalesChannelFilters,
  page: Page,
): Promise<SalesChannelRow[]> {
  return rowsPage(db, salesChannels, liveMatching(filters), page);
}

export function countSalesChannels(db: Executor, filters: SalesChannelFilters): Promise<number> {
  return countRows(db, salesChannels, liveMatching(filters));
}

export function findLiveSalesChannel(db: Executor, id: string): Promise<SalesChannelRow | undefined> {
  return findLiveRow(db, salesChannels, id);
}

/**
 * Reads the live channel with a share lock: link changes to one channel may run side by side,
 * but a delete of that channel (an UPDATE) waits for them, and then removes their links too.
 */
export function shareLockLiveSalesChannel(db: Executor, id: string): Promise<SalesChannelRow | undefined> {
  return findLiveRow(db, salesChannels, id, 'share');
}

export function insertSalesChannel(db: Executor, row: typeof salesChannels.$inferInsert): Promise<SalesChannelRow> {
  return insertRow(db, salesChannels, row);
}

export async function updateSalesChannelRow(
  db: Executor,
  id: string,
  patch: Partial<Pick<SalesChannelRow, 'name' | 'description' | 'is_disabled' | 'metadata'>> & { updated_at: Date },
): Promise<SalesChannelRow | undefined> {
  const [row] = await db
    .update(salesChannels)
    .set(patch)
    .where(and(eq(salesChannels.id, id), isNull(salesChannels.deleted_at)))
    .returning();
  return row;
}

/** Soft-deletes a live channel; undefined when there was none. */
export async function softDeleteSalesChannel(db: Executor, id: string, at: Date): Promise<string | undefined> {
  const [row] = await db
    .update(salesChannels)
    .set({ deleted_at: at, updated_at: at })
    .where(and(eq(salesChannels.id, id), isNull(salesChannels.deleted_at)))
    .returning({ id: salesChannels.id });
  return row?.id;
}

export async function deleteChannelKeyLinks(db: Executor, channelId: string): Promise<void> {
  await db.delete(apiKeySalesChannels).where(eq(apiKeySalesChannels.sales_channel_id, channelId));
}

/** Returns the ids of the products that were linked. */
export async function deleteChannelProductLinks(db: Executor, channelId: string): Promise<string[]> {
  const gone = await db
    .delete(productSalesChannels)
    .where(eq(productSalesChannels.sales_channel_id, channelId))
    .returning({ id: productSalesChannels.product_id });
  return gone.map((r) => r.id);
}

/** Which of these ids are live products (share-locked, so a concurrent product delete waits). */
export function findLiveProductIds(db: Executor, ids: string[]): Promise<string[]> {
  return liveIdsAmong(db, products, ids, 'share');
}

export async function linkProducts(db: Executor, channelId: string, productIds: string[]): Promise<void> {
  if (productIds.length === 0) return;
  await db
    .insert(productSalesChannels)
    .values(productIds.map((product_id) => ({ product_id, sales_channel_id: channelId })))
    .onConflictDoNothing();
}

export async function unlinkProducts(db: Executor, channelId: string, productIds: string[]): Promise<void> {
  if (productIds.length === 0) return;
  await db
    .delete(productSalesChannels)
    .where(
      and(eq(productSalesChannels.sales_channel_id, channelId), inArray(productSalesChannels.product_id, productIds)),
    );
}
