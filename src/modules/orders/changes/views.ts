import type { Executor } from '../../../platform/db/database.ts';
import type { AdminOrderView, DeskLineItemView } from '../desk-schema.ts';
import * as dq from '../desk-queries.ts';
import { orderDetail } from '../desk-view.ts';
import type { OrderLineRow, OrderRow, OrderShippingMethodRow } from '../queries.ts';
import { orderLineView, orderShippingMethodView } from '../service.ts';
import { pricedTotals, totalsView } from '../../totals/view.ts';
import { pendingDelta } from './engine.ts';
import * as cq from './queries.ts';
import type { OrderChangeActionView, OrderChangeView } from './schema.ts';

export function changeViews(currency: string, changes: cq.ChangeRow[], actions: cq.ActionRow[]): OrderChangeView[] {
  return changes.map((c) => ({
    ...c,
    currency_code: currency,
    carry_over_promotions: false,
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
  return { ...view, detail: { ...view.detail, delivered_quantity: 0, return_requested_quantity: 0 } };
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
  const rows = new Map((await dq.listLinesOf(db, [order.id])).map((l) => [l.id, l]));
  // The lines as the change leaves them: what the preview's totals are computed from.
  const prospective: OrderLineRow[] = [];
  const items: PreviewItem[] = detail.items.map((item) => {
    const mine = touching(item.id);
    const update = [...mine].reverse().find((a) => a.action === 'ITEM_UPDATE');
    const row = rows.get(item.id);
    if (row && !update) prospective.push(row);
    if (!update || !row) return { ...item, actions: mine };
    // The line as the update leaves it, priced with what the update computed (else its own pricing).
    const changed = {
      ...row,
      quantity: (update.details.quantity as number | undefined) ?? row.quantity,
      unit_price: (update.details.unit_price as number | undefined) ?? row.unit_price,
      pricing: update.details.pricing === undefined ? row.pricing : (update.details.pricing as OrderLineRow['pricing']),
    };
    prospective.push(changed);
    const view = orderLineView(changed, pricedTotals([changed], []).items[0]);
    return { ...view, detail: { ...item.detail, quantity: changed.quantity }, actions: mine };
  });
  for (const a of actions.filter((x) => x.action === 'ITEM_ADD')) {
    const line = a.details.line as OrderLineRow;
    prospective.push({ ...line, pricing: line.pricing ?? null });
    items.push({ ...addedItem(order, a), actions: touching(a.reference_id ?? '') });
  }
  // An edit's totals as Medusa's preview shows them: the lines as changed, the methods as they are.
  const totals = actions.some((a) => a.action === 'ITEM_ADD' || a.action === 'ITEM_UPDATE')
    ? totalsView(pricedTotals(prospective, await dq.listMethodsOf(db, [order.id])))
    : {};
  const delta = pendingDelta(actions);
  const summary = {
    ...detail.summary,
    current_order_total: detail.summary.current_order_total + delta,
    pending_difference: order.status === 'canceled' ? 0 : detail.summary.pending_difference + delta,
  };
  // A draft order's edit adds and removes shipping methods of its own.
  const removed = new Set(actions.filter((a) => a.action === 'SHIPPING_REMOVE').map((a) => a.reference_id));
  const added = actions
    .filter((a) => a.action === 'SHIPPING_ADD' && a.details.method)
    .map((a) => {
      const m = a.details.method as OrderShippingMethodRow;
      return orderShippingMethodView(m, pricedTotals([], [{ ...m, pricing: null }]).shipping_methods[0]);
    });
  const shipping_methods = [...detail.shipping_methods.filter((m) => !removed.has(m.id)), ...added];
  const [change] = changeViews(order.currency_code, [open], actions);
  return { ...detail, ...totals, items, shipping_methods, summary, order_change: change };
}
