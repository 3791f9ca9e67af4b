import type { Executor } from '../../platform/db/database.ts';
import { type CreditLineRow, creditLinesOf, summariesOf } from './changes/queries.ts';
import { creditedTotals, orderSummary, orderTransactions } from './changes/summary.ts';
import { paymentCollectionsOfOrders } from '../payments/ledger.ts';
import type { CreditedOrderRow } from './credited-queries.ts';
import * as dq from './desk-queries.ts';
import type { AdminOrderView, DeskLineItemView, FulfillmentView } from './desk-schema.ts';
import type { OrderRow } from './queries.ts';
import { orderView, withCreditLines } from './service.ts';
import { deliveredByLine } from './statuses.ts';

export function fulfillmentView(f: dq.FulfillmentRow): FulfillmentView {
  const { created_by: _by, stock_moves: _moves, ...rest } = f;
  return { ...rest, provider_id: f.provider_id ?? null, data: f.data ?? null, metadata: f.metadata ?? null };
}

/** What both views of an order read: lines, methods, fulfillments and payment collections, one query each for any number of orders. */
async function orderParts(db: Executor, rows: OrderRow[], moneyMoves: boolean) {
  const ids = rows.map((o) => o.id);
  return {
    lines: await dq.listLinesOf(db, ids),
    methods: await dq.listMethodsOf(db, ids),
    fulfillments: await dq.listFulfillmentsOf(db, ids),
    collections: await paymentCollectionsOfOrders(db, ids, { moneyMoves }),
  };
}

/** `credits`: the order's credit lines, oldest first. */
function withParts(
  o: OrderRow,
  parts: Awaited<ReturnType<typeof orderParts>>,
  credits: CreditLineRow[],
  requested: Map<string, number> = new Map(),
) {
  const own = parts.fulfillments.filter((f) => f.order_id === o.id);
  const delivered = deliveredByLine(own);
  const pcs = parts.collections.get(o.id) ?? [];
  const base = orderView(
    o,
    parts.lines.filter((l) => l.order_id === o.id),
    parts.methods.filter((m) => m.order_id === o.id),
    pcs,
  );
  const creditSum = creditedTotals(base.total, credits).sum;
  const items: DeskLineItemView[] = base.items.map((item) => ({
    ...item,
    detail: {
      ...item.detail,
      delivered_quantity: delivered.get(item.id) ?? 0,
      return_requested_quantity: requested.get(item.id) ?? 0,
    },
  }));
  return {
    ...withCreditLines(base, credits),
    creditSum,
    items,
    payment_collections: pcs,
    fulfillments: own.map(fulfillmentView),
  };
}

/**
 * Whole orders as the order desk shows them, in a fixed number of queries however many orders
 * (lines, shipping methods, fulfillments, payments, captures, refunds, collections, sessions,
 * summaries).
 */
export async function orderDetails(db: Executor, rows: OrderRow[]): Promise<AdminOrderView[]> {
  const parts = await orderParts(db, rows, true);
  const ids = rows.map((o) => o.id);
  const credits = await creditLinesOf(db, ids);
  const summaries = await summariesOf(db, ids);
  const requested = await dq.returnRequestedByLine(db, ids);
  return rows.map((o) => {
    const own = credits.filter((l) => l.order_id === o.id);
    const { creditSum, ...view } = withParts(o, parts, own, requested);
    const row = summaries.get(o.id);
    return {
      ...view,
      external_id: o.external_id,
      version: row?.version ?? 1,
      summary: orderSummary(o, view.payment_collections, row, 0, creditSum),
      transactions: orderTransactions(o, view.payment_collections),
    };
  });
}

/**
 * Orders as the store shows them (`/store/orders`): what its schema answers, without reading
 * what it leaves out (the payments' captures and refunds, the version, the money summary):
 * three queries fewer than the desk's view. The credit lines come with the order rows
 * (`findCreditedOrderRow`, `listCreditedOrderRows` of credited-queries.ts), so the totals are the desk's at no
 * statement more.
 */
export async function storeOrderDetails(db: Executor, rows: CreditedOrderRow[]) {
  const parts = await orderParts(db, rows, false);
  return rows.map(({ credit_lines, ...o }) => {
    const { creditSum: _sum, ...view } = withParts(o, parts, credit_lines);
    return view;
  });
}

export async function orderDetail(db: Executor, row: OrderRow): Promise<AdminOrderView> {
  return (await orderDetails(db, [row]))[0];
}
