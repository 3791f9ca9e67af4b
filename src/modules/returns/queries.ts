import { and, asc, count, desc, eq, inArray, isNull, ne, sql, type SQL } from 'drizzle-orm';
import { rows, type Executor } from '../../platform/db/database.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { orderLineItems, orders } from '../orders/tables.ts';
import { shippingOptions } from '../shipping-options/tables.ts';
import { from, tableAs } from '../../platform/db/typed-sql.ts';
import { shippingOptionPrices } from '../fulfillment/tables.ts';
import { stockLocations as sl } from '../stock-locations/tables.ts';
import { returnFulfillments, returnItems, returns } from './tables.ts';

const p = tableAs(shippingOptionPrices, 'p');

export type ReturnRow = typeof returns.$inferSelect;
export type ReturnItemRow = typeof returnItems.$inferSelect;
export type ReturnFulfillmentRow = typeof returnFulfillments.$inferSelect;

export async function insertReturn(db: Executor, row: Omit<ReturnRow, 'display_id'>): Promise<ReturnRow> {
  const [created] = await db.insert(returns).values(row).returning();
  return created;
}

export async function findReturn(db: Executor, id: string): Promise<ReturnRow | undefined> {
  const [row] = await db.select().from(returns).where(eq(returns.id, id));
  return row;
}

export async function updateReturn(db: Executor, id: string, patch: Partial<ReturnRow>): Promise<ReturnRow> {
  const [row] = await db.update(returns).set(patch).where(eq(returns.id, id)).returning();
  return row;
}

export interface ReturnFilters {
  id?: string[];
  order_id?: string[];
  status?: string[];
}

function matching(f: ReturnFilters): SQL | undefined {
  return and(
    f.id ? inArray(returns.id, f.id) : undefined,
    f.order_id ? inArray(returns.order_id, f.order_id) : undefined,
    f.status ? inArray(returns.status, f.status as ReturnRow['status'][]) : undefined,
  );
}

export async function listReturnRows(db: Executor, f: ReturnFilters, page: Page): Promise<ReturnRow[]> {
  return db
    .select()
    .from(returns)
    .where(matching(f))
    .orderBy(desc(returns.created_at), asc(returns.id))
    .limit(page.limit)
    .offset(page.offset);
}

export async function countReturnRows(db: Executor, f: ReturnFilters): Promise<number> {
  const [row] = await db.select({ n: count() }).from(returns).where(matching(f));
  return Number(row.n);
}

export async function itemsOfReturns(db: Executor, returnIds: string[]): Promise<ReturnItemRow[]> {
  if (!returnIds.length) return [];
  return db.select().from(returnItems).where(inArray(returnItems.return_id, returnIds)).orderBy(asc(returnItems.id));
}

/** Units of each order line already asked back by returns that were not canceled. */
export async function requestedByLine(db: Executor, orderId: string): Promise<Map<string, number>> {
  const found = await db
    .select({ item_id: returnItems.item_id, n: sql<number>`sum(${returnItems.quantity})::int` })
    .from(returnItems)
    .innerJoin(returns, eq(returns.id, returnItems.return_id))
    .where(and(eq(returnItems.order_id, orderId), ne(returns.status, 'canceled')))
    .groupBy(returnItems.item_id);
  return new Map(found.map((r) => [r.item_id, Number(r.n)]));
}

export async function insertReturnItem(db: Executor, row: ReturnItemRow): Promise<void> {
  await db.insert(returnItems).values(row);
}

export async function updateReturnItem(db: Executor, id: string, patch: Partial<ReturnItemRow>): Promise<void> {
  await db.update(returnItems).set(patch).where(eq(returnItems.id, id));
}

/** The order line's count of units back (sellable or damaged). */
export async function addReturnedQuantity(db: Executor, lineId: string, quantity: number, now: Date): Promise<void> {
  await db
    .update(orderLineItems)
    .set({ returned_quantity: sql`${orderLineItems.returned_quantity} + ${quantity}`, updated_at: now })
    .where(eq(orderLineItems.id, lineId));
}

/** A live shipping option's name and flat price (shipping-options module's table). */
export async function findShippingOption(db: Executor, id: string) {
  const [row] = await db
    .select({
      id: shippingOptions.id,
      name: shippingOptions.name,
      // A zone's option has prices, not one amount: its lowest unconditional one.
      amount: sql<number>`coalesce(${shippingOptions.amount}, (select min(${p.amount}) from ${from(p)}
        where ${p.shipping_option_id} = ${shippingOptions.id} and ${p.rules} = '[]'::jsonb), 0)::float8`,
    })
    .from(shippingOptions)
    .where(and(eq(shippingOptions.id, id), isNull(shippingOptions.deleted_at)));
  return row;
}

/** The currency of each order (the orders module's table): a return's amounts are in it. */
export async function orderCurrencies(db: Executor, orderIds: string[]): Promise<Map<string, string>> {
  if (!orderIds.length) return new Map();
  const found = await db
    .select({ id: orders.id, currency_code: orders.currency_code })
    .from(orders)
    .where(inArray(orders.id, orderIds));
  return new Map(found.map((o) => [o.id, o.currency_code]));
}

export async function insertReturnFulfillment(db: Executor, row: ReturnFulfillmentRow): Promise<void> {
  await db.insert(returnFulfillments).values(row);
}

export async function fulfillmentsOfReturns(db: Executor, returnIds: string[]): Promise<ReturnFulfillmentRow[]> {
  if (!returnIds.length) return [];
  return db
    .select()
    .from(returnFulfillments)
    .where(inArray(returnFulfillments.return_id, returnIds))
    .orderBy(asc(returnFulfillments.created_at), asc(returnFulfillments.id));
}

export async function updateReturnFulfillment(
  db: Executor,
  id: string,
  patch: Partial<ReturnFulfillmentRow>,
): Promise<void> {
  await db.update(returnFulfillments).set(patch).where(eq(returnFulfillments.id, id));
}

/** A stock location's name (the stock-locations module's table), for the carrier's label. */
export async function locationName(db: Executor, id: string): Promise<string | undefined> {
  const [row] = await rows<{ name: string }>(db, sql`select ${sl.name} from ${sl} where ${sl.id} = ${id}`);
  return row?.name;
}
