import type { Executor } from '../../platform/db/database.ts';
import { summariesOf } from './changes/queries.ts';
import { orderSummary, orderTransactions } from './changes/summary.ts';
import { paymentCollectionsOfOrders } from '../payments/ledger.ts';
import * as dq from './desk-queries.ts';
import type { AdminOrderView, DeskLineItemView, FulfillmentView } from './desk-schema.ts';
import type { OrderRow } from './queries.ts';
import { orderView } from './service.ts';
import { deliveredByLine } from './statuses.ts';

export function fulfillmentView(f: dq.FulfillmentRow): FulfillmentView {
  const { created_by: _by, stock_moves: _moves, ...rest } = f;
  return { ...rest, metadata: f.metadata ?? null };
}

/**
 * Whole orders as the order desk shows them, in a fixed number of queries however many orders
 * (lines, shipping methods, fulfillments, payments, captures, refunds, collections, sessions).
 */
export async function orderDetails(db: Executor, rows: OrderRow[]): Promise<AdminOrderView[]> {
  const ids = rows.map((o) => o.id);
  const lines = await dq.listLinesOf(db, ids);
  const methods = await dq.listMethodsOf(db, ids);
  const fulfillments = await dq.listFulfillmentsOf(db, ids);
  const collections = await paymentCollectionsOfOrders(db, ids);
  const summaries = await summariesOf(db, ids);
  return rows.map((o) => {
    const own = fulfillments.filter((f) => f.order_id === o.id);
    const delivered = deliveredByLine(own);
    const pcs = collections.get(o.id) ?? [];
    const base = orderView(
      o,
      lines.filter((l) => l.order_id === o.id),
      methods.filter((m) => m.order_id === o.id),
      pcs,
    );
    const items: DeskLineItemView[] = base.items.map((item) => ({
      ...item,
      detail: { ...item.detail, delivered_quantity: delivered.get(item.id) ?? 0 },
    }));
    const row = summaries.get(o.id);
    return {
      ...base,
      version: row?.version ?? 1,
      items,
      payment_collections: pcs,
      fulfillments: own.map(fulfillmentView),
      summary: orderSummary(o, pcs, row),
      transactions: orderTransactions(o, pcs),
    };
  });
}

export async function orderDetail(db: Executor, row: OrderRow): Promise<AdminOrderView> {
  return (await orderDetails(db, [row]))[0];
}
