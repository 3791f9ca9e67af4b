import { and, asc, type Column, eq, getTableName, inArray, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from '../../../platform/db/database.ts';
import { withJsonDates } from '../../../platform/db/json-rows.ts';
import type { RawRow } from '../../../platform/db/typed-sql.ts';
import type { OrderRow } from '../queries.ts';
import { orders } from '../tables.ts';
import { orderChangeActions, orderChanges, orderCreditLines, orderSummaries, orderVersions } from './tables.ts';

export type ChangeRow = typeof orderChanges.$inferSelect;
export type ActionRow = typeof orderChangeActions.$inferSelect;
export type SummaryRow = typeof orderSummaries.$inferSelect;
export type CreditLineRow = typeof orderCreditLines.$inferSelect;

export async function openChangeOf(db: Executor, orderId: string): Promise<ChangeRow | undefined> {
  const [row] = await db
    .select()
    .from(orderChanges)
    .where(and(eq(orderChanges.order_id, orderId), inArray(orderChanges.status, ['pending', 'requested'])));
  return row;
}

export async function findChange(db: Executor, id: string): Promise<ChangeRow | undefined> {
  const [row] = await db.select().from(orderChanges).where(eq(orderChanges.id, id));
  return row;
}

export async function listChangesOf(db: Executor, orderId: string): Promise<ChangeRow[]> {
  return db
    .select()
    .from(orderChanges)
    .where(eq(orderChanges.order_id, orderId))
    .orderBy(asc(orderChanges.created_at), asc(orderChanges.id));
}

export async function insertChange(db: Executor, row: ChangeRow): Promise<ChangeRow> {
  const [created] = await db.insert(orderChanges).values(row).returning();
  return created;
}

export async function updateChange(db: Executor, id: string, patch: Partial<ChangeRow>): Promise<ChangeRow> {
  const [row] = await db.update(orderChanges).set(patch).where(eq(orderChanges.id, id)).returning();
  return row;
}

export async function listActionsOf(db: Executor, changeIds: string[]): Promise<ActionRow[]> {
  if (!changeIds.length) return [];
  return db
    .select()
    .from(orderChangeActions)
    .where(inArray(orderChangeActions.order_change_id, changeIds))
    .orderBy(asc(orderChangeActions.created_at), asc(orderChangeActions.id));
}

export async function insertAction(db: Executor, row: ActionRow): Promise<void> {
  await db.insert(orderChangeActions).values(row);
}

export async function updateAction(db: Executor, id: string, patch: Partial<ActionRow>): Promise<void> {
  await db.update(orderChangeActions).set(patch).where(eq(orderChangeActions.id, id));
}

export async function deleteAction(db: Executor, id: string): Promise<void> {
  await db.delete(orderChangeActions).where(eq(orderChangeActions.id, id));
}

export async function markApplied(db: Executor, changeId: string): Promise<void> {
  await db.update(orderChangeActions).set({ applied: true }).where(eq(orderChangeActions.order_change_id, changeId));
}

export async function summariesOf(db: Executor, orderIds: string[]): Promise<Map<string, SummaryRow>> {
  if (!orderIds.length) return new Map();
  const found = await db.select().from(orderSummaries).where(inArray(orderSummaries.order_id, orderIds));
  return new Map(found.map((r) => [r.order_id, r]));
}

export async function saveSummary(db: Executor, row: SummaryRow): Promise<void> {
  await db
    .insert(orderSummaries)
    .values(row)
    .onConflictDoUpdate({
      target: orderSummaries.order_id,
      set: { version: row.version, adjustment_total: row.adjustment_total, updated_at: row.updated_at },
    });
}

/** A version is written once: a second writer of the same version keeps the first snapshot. */
export async function insertVersion(db: Executor, row: typeof orderVersions.$inferInsert): Promise<void> {
  await db.insert(orderVersions).values(row).onConflictDoNothing();
}

export async function listVersionsOf(db: Executor, orderId: string) {
  return db.select().from(orderVersions).where(eq(orderVersions.order_id, orderId)).orderBy(asc(orderVersions.version));
}

/** The order's stored totals (whole minor units, as placement writes them) after its lines or methods changed. */
export async function setOrderTotals(
  db: Executor,
  orderId: string,
  totals: Pick<OrderRow, 'item_total' | 'shipping_total' | 'tax_total' | 'discount_total' | 'total'>,
  now: Date,
): Promise<void> {
  await db
    .update(orders)
    .set({ ...totals, updated_at: now })
    .where(eq(orders.id, orderId));
}

export async function confirmedChangesOfReturns(db: Executor, returnIds: string[]): Promise<ChangeRow[]> {
  if (!returnIds.length) return [];
  return db
    .select()
    .from(orderChanges)
    .where(and(inArray(orderChanges.return_id, returnIds), eq(orderChanges.status, 'confirmed')));
}

/** Whether the return is the inbound leg of an exchange or a claim. */
export async function swapOfReturn(db: Executor, returnId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: orderChanges.id })
    .from(orderChanges)
    .where(and(eq(orderChanges.return_id, returnId), inArray(orderChanges.change_type, ['exchange', 'claim'])))
    .limit(1);
  return !!row;
}

/** The credit lines of these orders, oldest first. */
export async function creditLinesOf(db: Executor, orderIds: string[]): Promise<CreditLineRow[]> {
  if (orderIds.length === 0) return [];
  return db
    .select()
    .from(orderCreditLines)
    .where(inArray(orderCreditLines.order_id, orderIds))
    .orderBy(asc(orderCreditLines.created_at), asc(orderCreditLines.id));
}

/**
 * `"table"."column"`, spelled out: in a single-table select list drizzle leaves the table off
 * every column, even inside a subquery, where `order_id = id` would then compare the credit
 * line with itself.
 */
const qualified = (table: PgTable, column: Column) =>
  sql`${sql.identifier(getTableName(table))}.${sql.identifier(column.name)}`;
const line = (column: Column) => qualified(orderCreditLines, column);

/**
 * The credit lines of the statement's order row (`orders`, unaliased) as one JSON array, oldest
 * first: a column of the order read a view runs anyway, so showing an order's credited total
 * costs no statement of its own, and a page of orders no statement per order. In the select list,
 * under a LIMIT, PostgreSQL runs it for the page's rows only (after the sort).
 */
export const ORDER_CREDIT_LINES = sql<
  RawRow<CreditLineRow>[]
>`(select coalesce(json_agg(${sql.identifier(getTableName(orderCreditLines))}
  order by ${line(orderCreditLines.created_at)}, ${line(orderCreditLines.id)}), '[]'::json)
  from ${orderCreditLines} where ${line(orderCreditLines.order_id)} = ${qualified(orders, orders.id)})`;

/**
 * Each credited order's `credit_line_total` (its lines' sum when positive, as `creditedTotals`),
 * one row per order that has lines, for a statement to join: a list sorted by the credited
 * `total` reads the credit lines once, where the same sum as a subquery in the ORDER BY would
 * run once per order before the sort (measured in docs/orders.md).
 */
export function creditedAmounts(db: Executor) {
  return db
    .select({
      order_id: orderCreditLines.order_id,
      amount: sql<number>`greatest(sum(${orderCreditLines.amount}), 0)`.as('credited_amount'),
    })
    .from(orderCreditLines)
    .groupBy(orderCreditLines.order_id)
    .as('credited');
}

/** A credit line read inside JSON (ORDER_CREDIT_LINES), dates as Date. */
export const creditLineFromJson = (r: RawRow<CreditLineRow>): CreditLineRow => withJsonDates<CreditLineRow>(r);

export async function insertCreditLine(db: Executor, row: CreditLineRow): Promise<void> {
  await db.insert(orderCreditLines).values(row);
}
