import type { Executor } from '../../platform/db/database.ts';
import type { TxCtx } from '../../platform/context.ts';
import { priceDraft, type PricedDraft } from '../cart-pricing/draft-pricing.ts';
import { chargedAmount, pricedTotals } from '../totals/view.ts';
import { pendingDelta, recomputeOrderTotals } from '../orders/changes/engine.ts';
import * as cq from '../orders/changes/queries.ts';
import { orderPreview, type OrderPreview } from '../orders/changes/views.ts';
import * as dq from '../orders/desk-queries.ts';
import type { OrderLineRow, OrderRow, OrderShippingMethodRow } from '../orders/queries.ts';
import { orderView } from '../orders/service.ts';
import { findLiveRegion } from '../regions/queries.ts';
import * as q from './queries.ts';

/**
 * A draft's taxes and discounts, through the cart's pricing (cart-pricing/draft-pricing.ts): each
 * line and shipping method keeps what it was priced with, as a placed order's do, and is priced
 * again whenever the draft changes (created, its address or customer changed, an edit confirmed).
 * The draft's codes are its edits' PROMOTION_ADD and PROMOTION_REMOVE actions, in order: the
 * order change log is their record, so a draft needs no table of its own. An open edit is
 * previewed priced the same way, so the preview's totals are the confirmed draft's.
 */

/** The promotion ids `actions` leave applied, in the order they were added. */
export function foldPromotions(start: string[], actions: Pick<cq.ActionRow, 'action' | 'reference_id'>[]): string[] {
  const ids = [...start];
  for (const a of actions) {
    if (!a.reference_id) continue;
    if (a.action === 'PROMOTION_ADD' && !ids.includes(a.reference_id)) ids.push(a.reference_id);
    if (a.action === 'PROMOTION_REMOVE' && ids.includes(a.reference_id)) ids.splice(ids.indexOf(a.reference_id), 1);
  }
  return ids;
}

/** The draft's promotions after its confirmed edits (and `pending`, an open edit's actions). */
export async function draftPromotionIds(
  db: Executor,
  orderId: string,
  pending: cq.ActionRow[] = [],
): Promise<string[]> {
  const confirmed = (await cq.listChangesOf(db, orderId)).filter((c) => c.status === 'confirmed');
  const actions = await cq.listActionsOf(
    db,
    confirmed.map((c) => c.id),
  );
  return foldPromotions(foldPromotions([], actions), pending);
}

/** The draft's lines and methods as they will be once `actions` are confirmed. */
export function prospectiveRows(
  lines: OrderLineRow[],
  methods: OrderShippingMethodRow[],
  actions: cq.ActionRow[],
): { lines: OrderLineRow[]; methods: OrderShippingMethodRow[] } {
  const updates = new Map(actions.filter((a) => a.action === 'ITEM_UPDATE').map((a) => [a.reference_id, a]));
  const changed = lines.map((l) => {
    const u = updates.get(l.id);
    return u ? { ...l, quantity: u.details.quantity!, unit_price: u.details.unit_price! } : l;
  });
  const added = actions
    .filter((a) => a.action === 'ITEM_ADD')
    .map((a) => ({
      ...(a.details.line as OrderLineRow),
      quantity: a.details.quantity!,
      unit_price: a.details.unit_price!,
    }));
  const removed = new Set(actions.filter((a) => a.action === 'SHIPPING_REMOVE').map((a) => a.reference_id));
  const methodsAdded = actions
    .filter((a) => a.action === 'SHIPPING_ADD' && a.details.method)
    .map((a) => a.details.method as OrderShippingMethodRow);
  return { lines: [...changed, ...added], methods: [...methods.filter((m) => !removed.has(m.id)), ...methodsAdded] };
}

/** Prices `lines` and `methods` of the draft with `promotionIds`: each row with its new pricing. */
export async function pricedRows(
  tctx: TxCtx,
  order: OrderRow,
  rows: { lines: OrderLineRow[]; methods: OrderShippingMethodRow[] },
  promotionIds: string[],
): Promise<{ lines: OrderLineRow[]; methods: OrderShippingMethodRow[]; priced: PricedDraft }> {
  const region = await findLiveRegion(tctx.tx, order.region_id);
  const priced = await priceDraft(
    tctx,
    order,
    { automaticTaxes: region?.automatic_taxes ?? true },
    rows.lines,
    rows.methods,
    promotionIds,
  );
  return {
    lines: rows.lines.map((l, i) => ({ ...l, pricing: priced.lines[i] })),
    methods: rows.methods.map((m, i) => ({ ...m, pricing: priced.methods[i] })),
    priced,
  };
}

/** Prices the draft as it now stands and stores it: each line's and method's pricing, then the totals. */
export async function repriceDraft(tctx: TxCtx, orderId: string): Promise<OrderRow> {
  const order = (await dq.findOrderRow(tctx.tx, orderId))!;
  const rows = {
    lines: await dq.listLinesOf(tctx.tx, [orderId]),
    methods: await dq.listMethodsOf(tctx.tx, [orderId]),
  };
  const { lines, methods } = await pricedRows(tctx, order, rows, await draftPromotionIds(tctx.tx, orderId));
  for (const l of lines) await q.setLinePricing(tctx.tx, l.id, l.pricing);
  for (const m of methods) await q.setMethodPricing(tctx.tx, m.id, m.pricing);
  await recomputeOrderTotals(tctx, orderId);
  return (await dq.findOrderRow(tctx.tx, orderId))!;
}

/**
 * The draft with its open edit applied, priced: lines (changed, added), shipping methods and
 * codes, with totals and a summary as the confirmed draft will show them.
 */
export async function draftPreview(tctx: TxCtx, order: OrderRow): Promise<OrderPreview> {
  const base = await orderPreview(tctx.tx, order);
  const open = await cq.openChangeOf(tctx.tx, order.id);
  if (!open) return base;
  const actions = await cq.listActionsOf(tctx.tx, [open.id]);
  const rows = prospectiveRows(
    await dq.listLinesOf(tctx.tx, [order.id]),
    await dq.listMethodsOf(tctx.tx, [order.id]),
    actions,
  );
  const { lines, methods } = await pricedRows(tctx, order, rows, await draftPromotionIds(tctx.tx, order.id, actions));
  const view = orderView(order, lines, methods, base.payment_collections);
  const before = new Map(base.items.map((i) => [i.id, i]));
  const items = view.items.map((i) => ({
    ...i,
    detail: { ...i.detail, delivered_quantity: 0, return_requested_quantity: 0 },
    actions: before.get(i.id)?.actions ?? [],
  }));
  const { items: _items, shipping_methods, payment_collections: _pcs, ...totals } = view;
  // The summary moves by what the confirmed draft would be charged beside what it is now (not by
  // the actions' own amounts, which know nothing of taxes and discounts).
  const delta = chargedAmount(pricedTotals(lines, methods)) - order.total - pendingDelta(actions);
  const summary = {
    ...base.summary,
    current_order_total: base.summary.current_order_total + delta,
    pending_difference: base.summary.pending_difference + delta,
  };
  return { ...base, ...totals, items, shipping_methods, summary };
}
