import { and, asc, desc, eq, gt, gte, ilike, inArray, isNull, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.ts';
import { preparedRows, textArray } from '../../platform/db/prepared.ts';
import { searchBreadth } from '../../platform/db/search-breadth.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { fulfillments } from './fulfillment-tables.ts';
import type { OrderLineRow, OrderRow, OrderShippingMethodRow } from './queries.ts';
import { columnNames, from, tableAs } from '../../platform/db/typed-sql.ts';
import { productVariants as pv } from '../products/tables.ts';
import { returnItems, returns } from '../returns/tables.ts';
import { orderBuckets, orderCounts } from './count-tables.ts';
import { orderLineItems, orders, orderShippingMethods } from './tables.ts';
import { countRows } from '../../platform/db/count-rows.ts';
import { escapeLike } from '../../platform/db/like-pattern.ts';

export type FulfillmentRow = typeof fulfillments.$inferSelect;
type OrderPatch = Partial<
  Pick<OrderRow, 'status' | 'payment_status' | 'fulfillment_status' | 'canceled_at' | 'updated_at'>
>;
/** What `POST /admin/orders/{id}` may change. */
export type OrderDetailsPatch = Partial<
  Pick<OrderRow, 'email' | 'shipping_address' | 'billing_address' | 'metadata' | 'updated_at'>
>;
type LinePatch = Partial<
  Pick<OrderLineRow, 'fulfilled_quantity' | 'shipped_quantity' | 'reserved_quantity' | 'updated_at'>
>;
type FulfillmentPatch = Partial<
  Pick<
    FulfillmentRow,
    'shipped_at' | 'delivered_at' | 'canceled_at' | 'labels' | 'no_notification' | 'carrier_pending' | 'updated_at'
  >
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
  /** Draft orders or placed ones; undefined: both. */
  is_draft_order?: boolean;
}

export interface OrderSort {
  field: 'id' | 'display_id' | 'created_at' | 'updated_at' | 'total' | 'email';
  descending: boolean;
}

/**
 * `walk`: the search's conditions written so that no index serves them (`|| ''`, `+ 0`), for a
 * `q` most orders match (search-breadth.ts): walking the sort order then meets a page of matches
 * at once, where the trigram index would hand over every match to be sorted.
 */
function matching(f: OrderFilters, walk = false): SQL | undefined {
  const email = walk ? sql`(${orders.email} || '')` : orders.email;
  const id = walk ? sql`(${orders.id} || '')` : orders.id;
  const like = f.q ? escapeLike(f.q) : undefined;
  const displayId = f.q && /^\d{1,9}$/.test(f.q) ? Number(f.q) : undefined;
  const d = f.created_at;
  return and(
    f.id ? inArray(orders.id, f.id) : undefined,
    f.is_draft_order !== undefined ? eq(orders.is_draft_order, f.is_draft_order) : undefined,
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
          ilike(email, `%${like}%`),
          // The start of the id, any case: ids are ASCII, so lower-casing both sides is ILIKE,
          // and the prefix reads orders_lower_id_prefix_idx.
          sql`lower(${id}) like ${`${like.toLowerCase()}%`}`,
          displayId !== undefined
            ? walk
              ? sql`(${orders.display_id} + 0) = ${displayId}`
              : eq(orders.display_id, displayId)
            : undefined,
        )
      : undefined,
  );
}

/**
 * A sort key no index can hand over in order (the same order: `|| ''` keeps a text's collation).
 * For filters that match a few orders (a customer's, an email's, listed ids) the page must be
 * read from the filter's index and sorted; without statistics the planner would otherwise walk
 * a million rows in key order, betting on an early LIMIT.
 */
function unindexed(field: OrderSort['field']): SQL {
  const column = orders[field];
  if (field === 'created_at' || field === 'updated_at') return sql`(${column} + interval '0 seconds')`;
  if (field === 'display_id' || field === 'total') return sql`(${column} + 0)`;
  return sql`(${column} || '')`;
}

/** How common `f`'s matches are among the orders (search-breadth.ts): asked for a `q`. */
export function orderSearchBreadth(db: Executor, f: OrderFilters) {
  return searchBreadth(db, 'orders', matching(f));
}

/** The WHERE and ORDER BY of a page of orders. */
export function orderPage(f: OrderFilters, sort: OrderSort, broad: boolean) {
  const few = !!(f.customer_id || f.email || f.id);
  const key = (field: OrderSort['field']) => (few ? unindexed(field) : orders[field]);
  const column = key(sort.field);
  // id breaks ties so pages never overlap or skip rows.
  const by =
    sort.field === 'id'
      ? [sort.descending ? desc(column) : asc(column)]
      : [sort.descending ? desc(column) : asc(column), asc(key('id'))];
  return { where: matching(f, broad), by };
}

/** `broad`: a `q` most orders match (`orderSearchBreadth`), read by walking the sort order. */
export async function listOrderRows(
  db: Executor,
  f: OrderFilters,
  sort: OrderSort,
  page: Page,
  broad = false,
): Promise<OrderRow[]> {
  const { where, by } = orderPage(f, sort, broad);
  return db
    .select()
    .from(orders)
    .where(where)
    .orderBy(...by)
    .limit(page.limit)
    .offset(page.offset);
}

/** The filters order_counts is kept by (count-tables.ts): any mix of these alone is counted there. */
const COUNTED_BY = new Set<keyof OrderFilters>([
  'is_draft_order',
  'status',
  'payment_status',
  'fulfillment_status',
  'region_id',
  'sales_channel_id',
]);

const bounded = (d: OrderFilters['created_at']) => !!d && Object.values(d).some((v) => v !== undefined);

/** The filters actually set (a `created_at` without bounds is none). */
const setFilters = (f: OrderFilters) =>
  Object.entries(f)
    .filter(([key, value]) => value !== undefined && (key !== 'created_at' || bounded(f.created_at)))
    .map(([key]) => key as keyof OrderFilters);

/**
 * `GET /admin/orders`'s count. Counting a million order rows takes longer than the page, so the
 * counts triggers keep (count-tables.ts) answer what they can exactly: the equality filters of
 * order_counts alone, or a `created_at` range of placed orders (order_buckets inside it, plus the
 * orders of its two edge quarter hours). Anything else (q, email, customer, ids) counts the rows
 * it matches, through their indexes.
 */
export async function countOrderRows(db: Executor, f: OrderFilters): Promise<number> {
  const set = setFilters(f);
  // order_counts keeps a missing channel as ''; only a real id may be looked up there.
  if (set.every((k) => COUNTED_BY.has(k)) && (f.sales_channel_id ?? []).every(Boolean)) return countByKeys(db, f);
  if (f.is_draft_order === false && set.every((k) => k === 'is_draft_order' || k === 'created_at'))
    return countInRange(db, f);
  return countRows(db, orders, matching(f));
}

async function countByKeys(db: Executor, f: OrderFilters): Promise<number> {
  const c = orderCounts;
  const [row] = await db
    .select({ n: sql<number>`coalesce(sum(${c.orders}), 0)::int` })
    .from(c)
    .where(
      and(
        f.is_draft_order !== undefined ? eq(c.is_draft_order, f.is_draft_order) : undefined,
        f.status ? inArray(c.status, f.status) : undefined,
        f.payment_status ? inArray(c.payment_status, f.payment_status) : undefined,
        f.fulfillment_status ? inArray(c.fulfillment_status, f.fulfillment_status) : undefined,
        f.region_id ? inArray(c.region_id, f.region_id) : undefined,
        f.sales_channel_id ? inArray(c.sales_channel_id, f.sales_channel_id) : undefined,
      ),
    );
  return row.n;
}

const QUARTER_HOUR_MS = 900_000;
const floorQuarter = (d: Date) => Math.floor(d.getTime() / QUARTER_HOUR_MS) * QUARTER_HOUR_MS;
const ceilQuarter = (d: Date) => Math.ceil(d.getTime() / QUARTER_HOUR_MS) * QUARTER_HOUR_MS;
const maxOf = (xs: (number | undefined)[]) => {
  const set = xs.filter((x): x is number => x !== undefined);
  return set.length ? Math.max(...set) : undefined;
};
const minOf = (xs: (number | undefined)[]) => {
  const set = xs.filter((x): x is number => x !== undefined);
  return set.length ? Math.min(...set) : undefined;
};

/**
 * Placed orders in a `created_at` range: the whole quarter hours inside it from order_buckets
 * (from `first`, the first bucket all of whose orders pass the lower bounds, up to `end`, the
 * start of the first bucket some of whose orders may fail the upper bounds), plus the orders
 * outside those buckets counted one by one (at most two quarter hours, by orders_created_at_idx).
 */
async function countInRange(db: Executor, f: OrderFilters): Promise<number> {
  const d = f.created_at ?? {};
  const first = maxOf([d.gte && ceilQuarter(d.gte), d.gt && floorQuarter(d.gt) + QUARTER_HOUR_MS]);
  const end = minOf([d.lt && floorQuarter(d.lt), d.lte && floorQuarter(d.lte)]);
  if (first !== undefined && end !== undefined && first >= end) {
    return countRows(db, orders, matching(f));
  }
  const b = orderBuckets;
  const from = first === undefined ? undefined : new Date(first);
  const to = end === undefined ? undefined : new Date(end);
  const [inside] = await db
    .select({ n: sql<number>`coalesce(sum(${b.placed}), 0)::int` })
    .from(b)
    .where(and(from ? gte(b.bucket, from) : undefined, to ? lt(b.bucket, to) : undefined));
  const [edges] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(orders)
    .where(
      and(matching(f), or(from ? lt(orders.created_at, from) : undefined, to ? gte(orders.created_at, to) : undefined)),
    );
  return inside.n + edges.n;
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

export async function updateOrderDetails(db: Executor, id: string, patch: OrderDetailsPatch): Promise<OrderRow> {
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

/** Rows that are fulfilments: made (a row whose carrier has not answered is not one yet), maybe being canceled. */
const made = or(isNull(fulfillments.carrier_pending), eq(fulfillments.carrier_pending, 'canceling'));
/** Rows whose carrier has not made them yet. */
const unmade = inArray(fulfillments.carrier_pending, ['calling', 'unanswered']);
/** `made`, for rows already read. */
export const isMade = (f: Pick<FulfillmentRow, 'carrier_pending'>): boolean =>
  f.carrier_pending === null || f.carrier_pending === 'canceling';

/** One order's fulfilments, made or not yet (`isMade` tells them apart). */
export async function listEveryFulfillmentOf(db: Executor, orderId: string): Promise<FulfillmentRow[]> {
  return db.select().from(fulfillments).where(eq(fulfillments.order_id, orderId)).orderBy(asc(fulfillments.id));
}

/** The orders' fulfilments, made ones only. */
export async function listFulfillmentsOf(db: Executor, orderIds: string[]): Promise<FulfillmentRow[]> {
  if (!orderIds.length) return [];
  return db
    .select()
    .from(fulfillments)
    .where(and(inArray(fulfillments.order_id, orderIds), made))
    .orderBy(asc(fulfillments.id));
}

/** Marks a fulfilment its carrier is asked to cancel: no shipment of it meanwhile. */
export async function markFulfillmentCanceling(db: Executor, id: string, now: Date): Promise<void> {
  await db
    .update(fulfillments)
    .set({ carrier_pending: 'canceling', updated_at: now })
    .where(and(eq(fulfillments.id, id), made));
}

/** Its carrier refused the cancellation: the fulfilment is as it was. */
export async function clearFulfillmentCanceling(db: Executor, id: string, now: Date): Promise<void> {
  await db
    .update(fulfillments)
    .set({ carrier_pending: null, updated_at: now })
    .where(and(eq(fulfillments.id, id), eq(fulfillments.carrier_pending, 'canceling')));
}

/** An order's fulfilments whose carrier is being asked or did not answer (fulfillment-actions.ts). */
export async function listPendingFulfillmentsOf(db: Executor, orderId: string): Promise<FulfillmentRow[]> {
  return db
    .select()
    .from(fulfillments)
    .where(and(eq(fulfillments.order_id, orderId), unmade))
    .orderBy(asc(fulfillments.id));
}

/** A fulfillment by its own id (`/admin/fulfillments/{id}/…`): which order it belongs to. */
export async function findFulfillmentRow(db: Executor, id: string): Promise<FulfillmentRow | undefined> {
  const [row] = await db
    .select()
    .from(fulfillments)
    .where(and(eq(fulfillments.id, id), made));
  return row;
}

/** Takes a pending fulfilment for one carrier call: answers it when it was still `state`. */
export async function claimPendingFulfillment(
  db: Executor,
  id: string,
  state: 'calling' | 'unanswered',
  now: Date,
): Promise<FulfillmentRow | undefined> {
  const [row] = await db
    .update(fulfillments)
    .set({ carrier_pending: 'calling', updated_at: now })
    .where(and(eq(fulfillments.id, id), eq(fulfillments.carrier_pending, state)))
    .returning();
  return row;
}

/** Marks a pending fulfilment whose carrier gave no answer in time: a retry of its units asks again. */
export async function markFulfillmentUnanswered(db: Executor, id: string, now: Date): Promise<void> {
  await db
    .update(fulfillments)
    .set({ carrier_pending: 'unanswered', updated_at: now })
    .where(and(eq(fulfillments.id, id), unmade));
}

/** Removes a pending fulfilment (its carrier refused, or the order changed under it); answers whether it was there. */
export async function deletePendingFulfillment(db: Executor, id: string): Promise<boolean> {
  const gone = await db
    .delete(fulfillments)
    .where(and(eq(fulfillments.id, id), unmade))
    .returning({ id: fulfillments.id });
  return gone.length > 0;
}

/** Makes a pending fulfilment a fulfilment: what its carrier answered, the stock it took. */
export async function completePendingFulfillment(
  db: Executor,
  id: string,
  done: Pick<FulfillmentRow, 'data' | 'labels' | 'stock_moves' | 'location_id' | 'updated_at'>,
): Promise<FulfillmentRow | undefined> {
  const [row] = await db
    .update(fulfillments)
    .set({ ...done, carrier_pending: null })
    .where(and(eq(fulfillments.id, id), unmade))
    .returning();
  return row;
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
    sql`update ${pv} set ${columnNames(pv.inventory_quantity)} = ${pv.inventory_quantity} + ${quantity}, ${columnNames(pv.updated_at)} = ${now.toISOString()}::timestamptz
        where ${pv.id} = ${variantId} and ${pv.manage_inventory}`,
  );
}

/**
 * Per order line, the units returns (not canceled) asked back that have not arrived yet
 * (Medusa's `return_requested_quantity`): what the desk subtracts from what can still be returned.
 */
const ri = tableAs(returnItems, 'ri');
const r = tableAs(returns, 'r');
const outstanding = sql`${ri.quantity} - ${ri.received_quantity} - ${ri.damaged_quantity}`;

export async function returnRequestedByLine(db: Executor, orderIds: string[]): Promise<Map<string, number>> {
  if (!orderIds.length) return new Map();
  const found = await preparedRows<{ item_id: string; n: number | string }>(
    db,
    sql`select ${ri.item_id}, sum(${outstanding})::int as n
      from ${from(ri)} join ${from(r)} on ${r.id} = ${ri.return_id}
      where ${ri.order_id} = any(${textArray(orderIds)}) and ${r.status} <> 'canceled'
      group by ${ri.item_id} having sum(${outstanding}) > 0`,
  );
  return new Map(found.map((r) => [r.item_id, Number(r.n)]));
}
