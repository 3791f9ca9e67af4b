import { and, asc, count, desc, eq, inArray, type SQL } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { orderClaimItems, orderClaims } from '../claims/tables.ts';
import { orderChanges } from '../orders/changes/tables.ts';
import type { ChangeRow } from '../orders/changes/queries.ts';
import { orderExchanges } from './tables.ts';

/** Rows of exchanges and claims: the two after-sale swaps share their queries. */

export type ExchangeRow = typeof orderExchanges.$inferSelect;
export type ClaimRow = typeof orderClaims.$inferSelect;
export type ClaimItemRow = typeof orderClaimItems.$inferSelect;
export type SwapKind = 'exchange' | 'claim';
export type SwapRow = ExchangeRow | ClaimRow;

const tableOf = (kind: SwapKind) => (kind === 'exchange' ? orderExchanges : orderClaims);

export async function insertExchange(db: Executor, row: Omit<ExchangeRow, 'display_id'>): Promise<void> {
  await db.insert(orderExchanges).values(row);
}

export async function insertClaim(db: Executor, row: Omit<ClaimRow, 'display_id'>): Promise<void> {
  await db.insert(orderClaims).values(row);
}

export async function findSwap(db: Executor, kind: SwapKind, id: string): Promise<SwapRow | undefined> {
  const t = tableOf(kind);
  const [row] = await db.select().from(t).where(eq(t.id, id));
  return row;
}

export async function updateSwap(db: Executor, kind: SwapKind, id: string, patch: Partial<ClaimRow & ExchangeRow>) {
  if (kind === 'exchange') await db.update(orderExchanges).set(patch).where(eq(orderExchanges.id, id));
  else await db.update(orderClaims).set(patch).where(eq(orderClaims.id, id));
}

export interface SwapFilters {
  id?: string[];
  order_id?: string[];
}

function matching(kind: SwapKind, f: SwapFilters): SQL | undefined {
  const t = tableOf(kind);
  return and(f.id ? inArray(t.id, f.id) : undefined, f.order_id ? inArray(t.order_id, f.order_id) : undefined);
}

export async function listSwaps(db: Executor, kind: SwapKind, f: SwapFilters, page: Page): Promise<SwapRow[]> {
  const t = tableOf(kind);
  return db
    .select()
    .from(t)
    .where(matching(kind, f))
    .orderBy(desc(t.created_at), asc(t.id))
    .limit(page.limit)
    .offset(page.offset);
}

export async function countSwaps(db: Executor, kind: SwapKind, f: SwapFilters): Promise<number> {
  const t = tableOf(kind);
  const [row] = await db.select({ n: count() }).from(t).where(matching(kind, f));
  return Number(row.n);
}

/** The changes of these exchanges or claims (one each, its latest), oldest first. */
export async function changesOfSwaps(db: Executor, kind: SwapKind, ids: string[]): Promise<ChangeRow[]> {
  if (!ids.length) return [];
  const col = kind === 'exchange' ? orderChanges.exchange_id : orderChanges.claim_id;
  return db.select().from(orderChanges).where(inArray(col, ids)).orderBy(asc(orderChanges.created_at));
}

export async function insertClaimItem(db: Executor, row: ClaimItemRow): Promise<void> {
  await db.insert(orderClaimItems).values(row);
}

export async function claimItemsOf(db: Executor, claimIds: string[]): Promise<ClaimItemRow[]> {
  if (!claimIds.length) return [];
  return db
    .select()
    .from(orderClaimItems)
    .where(inArray(orderClaimItems.claim_id, claimIds))
    .orderBy(asc(orderClaimItems.id));
}

/** Units of each line of the order already claimed by claims that were not canceled. */
export async function claimedByLine(db: Executor, orderId: string): Promise<Map<string, number>> {
  const found = await db
    .select({ item_id: orderClaimItems.item_id, quantity: orderClaimItems.quantity, canceled: orderClaims.canceled_at })
    .from(orderClaimItems)
    .innerJoin(orderClaims, eq(orderClaims.id, orderClaimItems.claim_id))
    .where(eq(orderClaimItems.order_id, orderId));
  const by = new Map<string, number>();
  for (const r of found) if (!r.canceled) by.set(r.item_id, (by.get(r.item_id) ?? 0) + r.quantity);
  return by;
}
