import type { Ctx } from '../../platform/context.ts';
import { errors } from '../../platform/http/errors.ts';
import { filterDate } from '../../platform/http/filter-date.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { type Breadth, pageAndCount } from '../../platform/db/search-breadth.ts';
import * as cq from './credited-queries.ts';
import * as dq from './desk-queries.ts';
import { orderNotFound } from './desk.ts';
import {
  ORDER_SORT_FIELDS,
  type AdminOrderQueryInput,
  type AdminOrderView,
  type CustomerOrderView,
} from './desk-schema.ts';
import { creditedTotals } from './changes/summary.ts';
import { orderDetail, storeOrderDetails } from './desk-view.ts';
import { orderView } from './service.ts';
import { hasAccount } from '../customers/service.ts';

const list = <T>(v: T | T[] | undefined): T[] | undefined => (v === undefined ? undefined : ([v].flat() as T[]));

const instant = (value: string | undefined, name: string) => filterDate(value, `created_at.${name}`);

function sortOf(order: string | undefined): dq.OrderSort {
  if (!order) return { field: 'id', descending: false };
  const field = order.replace(/^-/, '');
  if (!(ORDER_SORT_FIELDS as readonly string[]).includes(field))
    throw errors.invalid('order_sort_field_invalid', { field });
  return { field: field as dq.OrderSort['field'], descending: order.startsWith('-') };
}

/** The query as filters: arrays for one-or-many fields, lower-cased emails, dates checked. */
export function orderFilters(q: AdminOrderQueryInput): dq.OrderFilters {
  const d = q.created_at;
  return {
    id: list(q.id),
    status: list(q.status),
    payment_status: list(q.payment_status),
    fulfillment_status: list(q.fulfillment_status),
    customer_id: list(q.customer_id),
    region_id: list(q.region_id),
    sales_channel_id: list(q.sales_channel_id),
    email: list(q.email)?.map((e) => e.toLowerCase()),
    created_at: d && {
      gte: instant(d.gte ?? d.$gte, d.gte ? 'gte' : '$gte'),
      gt: instant(d.gt ?? d.$gt, d.gt ? 'gt' : '$gt'),
      lte: instant(d.lte ?? d.$lte, d.lte ? 'lte' : '$lte'),
      lt: instant(d.lt ?? d.$lt, d.lt ? 'lt' : '$lt'),
    },
    q: q.q?.trim() || undefined,
    // As Medusa's admin list: placed orders only, unless drafts are asked for (is_draft_order, or status draft).
    is_draft_order: q.is_draft_order ?? (([q.status].flat() as unknown[]).includes('draft') ? undefined : false),
  };
}

/**
 * `GET /admin/orders`: one query for the page (its orders' credit lines folded in), one for the
 * count beside it, and one each for the page's lines and shipping methods, side by side: an
 * order's totals are computed from what its lines kept at placement (exact, with their tax lines
 * and discounts), so a summary without them would read 0, and less its credit lines, as the
 * order page shows them. A `q`
 * first samples how common its matches are (search-breadth.ts): one most orders match is read by
 * walking the sort order and, past a full page, counted by an estimate (`count_estimated`).
 */
export async function listOrders(ctx: Ctx, query: AdminOrderQueryInput, page: Page) {
  const filters = orderFilters(query);
  const breadth: Breadth = filters.q ? await dq.orderSearchBreadth(ctx.db, filters) : {};
  const broad = breadth.estimate !== undefined;
  const { rows, count, estimated } = await pageAndCount(
    page,
    breadth,
    () => cq.listCreditedOrderRows(ctx.db, filters, sortOf(query.order), page, broad),
    () => dq.countOrderRows(ctx.db, filters),
  );
  const ids = rows.map((o) => o.id);
  const [lines, methods] = ids.length
    ? await Promise.all([dq.listLinesOf(ctx.db, ids), dq.listMethodsOf(ctx.db, ids)])
    : [[], []];
  const byOrder = <R extends { order_id: string }>(rs: R[]) => {
    const m = new Map<string, R[]>();
    for (const r of rs) m.set(r.order_id, [...(m.get(r.order_id) ?? []), r]);
    return m;
  };
  const linesOf = byOrder(lines);
  const methodsOf = byOrder(methods);
  const orders = rows.map(({ credit_lines, ...o }) => {
    const view = orderView(o, linesOf.get(o.id) ?? [], methodsOf.get(o.id) ?? [], []);
    const { sum: _sum, ...credited } = creditedTotals(view.total, credit_lines);
    return { ...view, external_id: o.external_id, ...credited };
  });
  return { orders, count, ...(estimated ? { count_estimated: true } : {}) };
}

export async function getOrder(ctx: Ctx, id: string): Promise<AdminOrderView> {
  const row = await dq.findOrderRow(ctx.db, id);
  if (!row) throw orderNotFound(id);
  return orderDetail(ctx.db, row);
}

/** `GET /store/orders`: the signed-in customer's orders, newest first. */
export async function listCustomerOrders(ctx: Ctx, customerId: string, page: Page) {
  const filters = { customer_id: [customerId], is_draft_order: false };
  const rows = await cq.listCreditedOrderRows(ctx.db, filters, { field: 'id', descending: true }, page);
  return { orders: await storeOrderDetails(ctx.db, rows), count: await dq.countOrderRows(ctx.db, filters) };
}

/**
 * `GET /store/orders/{id}`: an order placed without an account is served to whoever holds its
 * (unguessable) id, as Medusa does for its order-confirmed page; an order of a customer only to
 * that customer. Anyone else's is as unknown as a missing one.
 */
export async function getStoreOrder(ctx: Ctx, customerId: string | null, id: string) {
  const row = await cq.findCreditedOrderRow(ctx.db, id);
  if (!row || row.is_draft_order) throw orderNotFound(id);
  // A guest customer's order (one moved to a guest, as Medusa's guests all have a record) is a guest's order too.
  if (row.customer_id !== null && row.customer_id !== customerId && (await hasAccount(ctx.db, row.customer_id)))
    throw orderNotFound(id);
  return (await storeOrderDetails(ctx.db, [row]))[0];
}

/**
 * `fields=*orders` of `/store/customers/me`: the customer's placed orders as Medusa's Query
 * answers the customer→order link: each order with its items, shipping methods and totals, no
 * payment collections or fulfillments (the order page reads those); drafts left out as
 * `/store/orders` leaves them out. Medusa names no order; ours is the order of placing. Three
 * queries however many orders (the credit lines, which `total` counts as everywhere else, come
 * with the order rows).
 */
export async function customerOrdersOf(ctx: Ctx, customerId: string): Promise<CustomerOrderView[]> {
  const rows = await cq.listCustomerOrderRows(ctx.db, customerId);
  const ids = rows.map((o) => o.id);
  const lines = await dq.listLinesOf(ctx.db, ids);
  const methods = await dq.listMethodsOf(ctx.db, ids);
  return rows.map(({ version, credit_lines, ...o }) => {
    const { payment_collections: _none, ...view } = orderView(
      o,
      lines.filter((l) => l.order_id === o.id),
      methods.filter((m) => m.order_id === o.id),
      [],
    );
    const { sum: _sum, ...credited } = creditedTotals(view.total, credit_lines);
    return { ...view, ...credited, version, deleted_at: null };
  });
}
