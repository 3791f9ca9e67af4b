import { and, asc, desc, eq, gt, gte, ilike, inArray, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { fulfillments } from './fulfillment-tables.ts';
import type { OrderLineRow, OrderRow, OrderShippingMethodRow } from './queries.ts';
import { orderLineItems, orders, orderShippingMethods } from './tables.ts';

export type FulfillmentRow = typeof fulfillments.$inferSelect;
type OrderPatch = Partial<
  Pick<OrderRow, 'status' | 'payment_status' | 'fulfillment_status' | 'canceled_at' | 'updated_at'>
>;
type LinePatch = Partial<
  Pick<OrderLineRow, 'fulfilled_quantity' | 'shipped_quantity' | 'reserved_quantity' | 'updated_at'>
>;
type FulfillmentPatch = Partial<
  Pick<FulfillmentRow, 'shipped_at' | 'delivered_at' | 'canceled_at' | 'labels' | 'no_notification' | 'updated_at'>
>;

export interface OrderFilters {
  id?: string[];
  status?: string[];
  payment_status?: string[];
  fulfillment_status?: string[];
  customer_id?: string[];
  region_id?: string[];
  sales_channel_id?: string[];
  /** Lower-cased. */
  email?: string[];
  created_at?: { gte?: Date; gt?: Date; lte?: Date; lt?: Date };
  q?: string;
}

export interface OrderSort {
  field: 'id' | 'display_id' | 'created_at' | 'updated_at' | 'total' | 'email';
  descending: boolean;
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, '\\$&');

function matching(f: OrderFilters): SQL | undefined {
  const like = f.q ? escapeLike(f.q) : undefined;
  const displayId = f.q && /^\d{1,9}$/.test(f.q) ? Number(f.q) : undefined;
  const d = f.created_at;
  return and(
    f.id ? inArray(orders.id, f.id) : undefined,
    f.status ? inArray(orders.status, f.status as OrderRow['status'][]) : undefined,
    f.payment_status ? inArray(orders.payment_status, f.payment_status as OrderRow['payment_status'][]) : undefined,
    f.fulfillment_status
      ? inArray(orders.fulfillment_status, f.fulfillment_status as OrderRow['fulfillment_status'][])
      : undefined,
    f.customer_id ? inArray(orders.customer_id, f.customer_id) : undefined,
    f.region_id ? inArray(orders.region_id, f.region_id) : undefined,
    f.sales_channel_id ? inArray(orders.sales_channel_id, f.sales_channel_id) : undefined,
    f.email ? inArray(sql`lower(${orders.email})`, f.email) : undefined,
    d?.gte ? gte(orders.created_at, d.gte) : undefined,
    d?.gt ? gt(orders.created_at, d.gt) : undefined,
    d?.lte ? lte(orders.created_at, d.lte) : undefined,
    d?.lt ? lt(orders.created_at, d.lt) : undefined,
    like !== undefined
      ? or(
          ilike(orders.email, `%${like}%`),
          ilike(orders.id, `${like}%`),
          displayId !== undefined ? eq(orders.display_id, displayId) : undefined,
        )
      : undefined,
  );
}

export async function listOrderRows(db: Executor, f: OrderFilters, sort: OrderSort, page: Page): Promise<OrderRow[]> {
  const column = orders[sort.field];
  // id breaks ties so pages never overlap or skip rows.
  const by =
    sort.field === 'id'
      ? [sort.descending ? desc(column) : asc(column)]
      : [sort.descending ? desc(column) : asc(column), asc(orders.id)];
  return db
    .select()
    .from(orders)
    .where(matching(f))
    .orderBy(...by)
    .limit(page.limit)
    .offset(page.offset);
}

export async function countOrderRows(db: Executor, f: OrderFilters): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(orders).where(matching(f));
  return row.n;
}

export async function findOrderRow(db: Executor, id: string): Promise<OrderRow | undefined> {
  const [row] = await db.select().from(orders).where(eq(orders.id, id));
  return row;
}

/** Every order desk transition starts here: one at a time per order. */
export async function lockOrderRow(db: Executor, id: string): Promise<OrderRow | undefined> {
  const [row] = await db.select().from(orders).where(eq(orders.id, id)).for('update');
  return row;
}

export async function updateOrderRow(db: Executor, id: string, patch: OrderPatch): Promise<OrderRow> {
  const [row] = await db.update(orders).set(patch).where(eq(orders.id, id)).returning();
  return row;
}

export async function listLinesOf(db: Executor, orderIds: string[]): Promise<OrderLineRow[]> {
  if (!orderIds.length) return [];
  return db
    .select()
    .from(orderLineItems)
    .where(inArray(orderLineItems.order_id, orderIds))
    .orderBy(asc(orderLineItems.id));
}

export async function updateLineRow(db: Executor, id: string, patch: LinePatch): Promise<OrderLineRow> {
  const [row] = await db.update(orderLineItems).set(patch).where(eq(orderLineItems.id, id)).returning();
  return row;
}

export async function listMethodsOf(db: Executor, orderIds: string[]): Promise<OrderShippingMethodRow[]> {
  if (!orderIds.length) return [];
  return db
    .select()
    .from(orderShippingMethods)
    .where(inArray(orderShippingMethods.order_id, orderIds))
    .orderBy(asc(orderShippingMethods.id));
}

export async function listFulfillmentsOf(db: Executor, orderIds: string[]): Promise<FulfillmentRow[]> {
  if (!orderIds.length) return [];
  return db.select().from(fulfillments).where(inArray(fulfillments.order_id, orderIds)).orderBy(asc(fulfillments.id));
}

export async function insertFulfillment(db: Executor, row: typeof fulfillments.$inferInsert): Promise<FulfillmentRow> {
  const [created] = await db.insert(fulfillments).values(row).returning();
  return created;
}

export async function updateFulfillmentRow(db: Executor, id: string, patch: FulfillmentPatch): Promise<FulfillmentRow> {
  const [row] = await db.update(fulfillments).set(patch).where(eq(fulfillments.id, id)).returning();
  return row;
}

/** Puts units back on a variant's stock, if it still manages inventory (checkout took them). */
export async function restock(db: Executor, variantId: string, quantity: number, now: Date): Promise<void> {
  await db.execute(
    sql`update product_variants set inventory_quantity = inventory_quantity + ${quantity}, updated_at = ${now.toISOString()}::timestamptz
        where id = ${variantId} and manage_inventory`,
  );
}
