import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.ts';
import type { RawRow } from '../../platform/db/typed-sql.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { type CreditLineRow, creditedAmounts, creditLineFromJson, ORDER_CREDIT_LINES } from './changes/queries.ts';
import { orderSummaries } from './changes/tables.ts';
import { type OrderFilters, type OrderSort, orderPage } from './desk-queries.ts';
import type { OrderRow } from './queries.ts';
import { orders } from './tables.ts';

/*
 * The order reads that come with each order's credit lines, read in the same statement, so
 * every view's totals (the stored total less `credit_line_total`) are the desk's at no extra query.
 */

/** An order row with its credit lines, read in the same statement (ORDER_CREDIT_LINES). */
export type CreditedOrderRow = OrderRow & { credit_lines: CreditLineRow[] };

/**
 * `listOrderRows` with each order's credit lines, in the same statement (the lists' totals count
 * them). Sorted by `total`, the key is the credited total every view shows (the stored total less
 * `credit_line_total`), read through one join of the credited orders' sums (`creditedAmounts`).
 */
export async function listCreditedOrderRows(
  db: Executor,
  f: OrderFilters,
  sort: OrderSort,
  page: Page,
  broad = false,
): Promise<CreditedOrderRow[]> {
  const { where, by } = orderPage(f, sort, broad);
  const select = db.select({ order: orders, credit_lines: ORDER_CREDIT_LINES }).from(orders);
  let found: { order: OrderRow; credit_lines: RawRow<CreditLineRow>[] }[];
  if (sort.field === 'total') {
    const credited = creditedAmounts(db);
    const key = sql`(${orders.total} - coalesce(${credited.amount}, 0))`;
    found = await select
      .leftJoin(credited, eq(credited.order_id, orders.id))
      .where(where)
      .orderBy(sort.descending ? desc(key) : asc(key), asc(orders.id))
      .limit(page.limit)
      .offset(page.offset);
  } else
    found = await select
      .where(where)
      .orderBy(...by)
      .limit(page.limit)
      .offset(page.offset);
  return found.map((r) => ({ ...r.order, credit_lines: r.credit_lines.map(creditLineFromJson) }));
}

/** An order with its credit lines, in one statement (the store's order page counts them in its totals). */
export async function findCreditedOrderRow(db: Executor, id: string): Promise<CreditedOrderRow | undefined> {
  const [row] = await db
    .select({ order: orders, credit_lines: ORDER_CREDIT_LINES })
    .from(orders)
    .where(eq(orders.id, id));
  return row && { ...row.order, credit_lines: row.credit_lines.map(creditLineFromJson) };
}

/** A customer's placed orders, oldest first, with their versions and credit lines (one query, by orders_customer_idx). */
export async function listCustomerOrderRows(
  db: Executor,
  customerId: string,
): Promise<(CreditedOrderRow & { version: number })[]> {
  const rows = await db
    .select({
      order: orders,
      version: sql<number>`coalesce(${orderSummaries.version}, 1)::int`,
      credit_lines: ORDER_CREDIT_LINES,
    })
    .from(orders)
    .leftJoin(orderSummaries, eq(orderSummaries.order_id, orders.id))
    .where(and(eq(orders.customer_id, customerId), eq(orders.is_draft_order, false)))
    .orderBy(asc(orders.created_at), asc(orders.id));
  return rows.map((r) => ({ ...r.order, version: r.version, credit_lines: r.credit_lines.map(creditLineFromJson) }));
}
