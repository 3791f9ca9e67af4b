import type { Executor } from '../../../platform/db/database.ts';
import type { AdminOrderView, DeskLineItemView } from '../desk-schema.ts';
import { orderDetail } from '../desk-view.ts';
import type { OrderLineRow, OrderRow } from '../queries.ts';
import { orderLineView } from '../service.ts';
import { pricedTotals } from '../../totals/view.ts';
import { pendingDelta } from './engine.ts';
import * as cq from './queries.ts';
import type { OrderChangeActionView, OrderChangeView } from './schema.ts';

export function changeViews(currency: string, changes: cq.ChangeRow[], actions: cq.ActionRow[]): OrderChangeView[] {
  return changes.map((c) => ({
    ...c,
    currency_code: currency,
    exchange_id: null,
    claim_id: null,
    metadata: c.metadata ?? null,
    actions: actions.filter((a) => a.order_change_id === c.id).map(actionView),
  }));
}

const actionView = (a: cq.ActionRow): OrderChangeActionView => ({ ...a, details: a.details });

export async function listChanges(db: Executor, order: OrderRow): Promise<OrderChangeView[]> {
  const changes = await cq.listChangesOf(db, order.id);
  return changeViews(
    order.currency_code,
    changes,
    await cq.listActionsOf(
      db,
      changes.map((c) => c.id),
    ),
  );
}

export type PreviewItem = DeskLineItemView & { actions?: OrderChangeActionView[] };
export type OrderPreview = Omit<AdminOrderView, 'items'> & {
  items: PreviewItem[];
  order_change: OrderChangeView | null;
};

/** A line an ITEM_ADD action would create, as the order will show it. */
function addedItem(order: OrderRow, a: cq.ActionRow): DeskLineItemView {
  const stored = a.details.line as OrderLineRow;
  const line = { ...stored, pricing: stored.pricing ?? null };
  const view = orderLineView(
    { ...line, order_id: order.id, created_at: a.created_at, updated_at: a.updated_at },
    pricedTotals([line], []).items[0],
  );
  return { ...view, detail: { ...view.detail, delivered_quantity: 0 } };
}

/**
 * The order as it would be once its open change is confirmed (Medusa's preview): items with the
 * actions touching them, quantities and prices changed, added lines, and the summary's totals.
 */
export async function orderPreview(db: Executor, order: OrderRow): Promise<OrderPreview> {
  const detail = await orderDetail(db, order);
  const open = await cq.openChangeOf(db, order.id);
  if (!open) return { ...detail, order_change: null };
  const actions = await cq.listActionsOf(db, [open.id]);
  const views = actions.map(actionView);
  const touching = (id: string) => views.filter((a) => a.reference_id === id || a.details.reference_id === id);
  const items: PreviewItem[] = detail.items.map((item) => {
    const mine = touching(item.id);
    const update = [...mine].reverse().find((a) => a.action === 'ITEM_UPDATE');
    const quantity = (update?.details.quantity as number | undefined) ?? item.quantity;
    const unitPrice = (update?.details.unit_price as number | undefined) ?? item.unit_price;
    const total = quantity * unitPrice;
    return {
      ...item,
      quantity,
      unit_price: unitPrice,
      subtotal: total,
      total,
      original_total: total,
      detail: { ...item.detail, quantity },
      actions: mine,
    };
  });
  for (const a of actions.filter((x) => x.action === 'ITEM_ADD'))
    items.push({ ...addedItem(order, a), actions: touching(a.reference_id ?? '') });
  const delta = pendingDelta(actions);
  const summary = {
    ...detail.summary,
    current_order_total: detail.summary.current_order_total + delta,
    pending_difference: order.status === 'canceled' ? 0 : detail.summary.pending_difference + delta,
  };
  const [change] = changeViews(order.currency_code, [open], actions);
  return { ...detail, items, summary, order_change: change };
}
