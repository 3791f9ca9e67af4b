import type { TxCtx } from '../../../platform/context.ts';
import { errors } from '../../../platform/http/errors.ts';
import { newId } from '../../../platform/ids.ts';
import { chargedAmount, pricedTotals } from '../../totals/view.ts';
import * as dq from '../desk-queries.ts';
import { orderDetail } from '../desk-view.ts';
import type { OrderRow } from '../queries.ts';
import * as cq from './queries.ts';
import type { ActionDetails, ActionType, ChangeType } from './tables.ts';

/**
 * The order change life cycle every after-sale flow shares: open a change (one per order at a
 * time), gather actions, then confirm: the order as it was is kept as its version, the actions
 * are applied in one transaction under the order lock, and the order moves to the next version.
 */

/** Actions whose money sits beside the lines (lines themselves carry what edits change). */
const ADJUSTING: ReadonlySet<ActionType> = new Set([
  'SHIPPING_ADD',
  'RECEIVE_RETURN_ITEM',
  'RECEIVE_DAMAGED_RETURN_ITEM',
  'WRITE_OFF_ITEM',
  'REINSTATE_ITEM',
  'SHIPPING_REMOVE',
]);

/**
 * Whether an action moves money beside the lines. A requested return moves none until its items
 * arrive, except the inbound items of an exchange (`details.deduct`): they are credited when the
 * exchange is confirmed, as Medusa does, and their receipt then credits nothing. A draft order's
 * shipping method (`details.method`) is a row of its own, not money beside the lines.
 */
export const adjusts = (a: Pick<cq.ActionRow, 'action' | 'details'>) =>
  (ADJUSTING.has(a.action) && !a.details.method) || (a.action === 'RETURN_ITEM' && a.details.deduct === true);

/** What the open change's actions would add to the order total (a credit line's amount is the credit: it takes off). */
export const pendingDelta = (actions: cq.ActionRow[]) =>
  actions
    .filter((a) => a.action !== 'RETURN_ITEM' || adjusts(a))
    .reduce((s, a) => s + (a.action === 'CREDIT_LINE_ADD' ? -a.amount : a.amount), 0);

export async function currentVersion(tctx: TxCtx, orderId: string): Promise<number> {
  return (await cq.summariesOf(tctx.tx, [orderId])).get(orderId)?.version ?? 1;
}

/** Changes are refused on orders that are canceled or archived. */
export function assertChangeable(order: OrderRow): void {
  if (order.status === 'canceled') throw errors.notAllowed('order_canceled', { id: order.id });
  if (order.status === 'archived') throw errors.notAllowed('order_archived', { id: order.id });
}

export async function openChange(
  tctx: TxCtx,
  order: OrderRow,
  type: ChangeType,
  opts: {
    return_id?: string | null;
    exchange_id?: string | null;
    claim_id?: string | null;
    description?: string | null;
    internal_note?: string | null;
  } = {},
): Promise<cq.ChangeRow> {
  assertChangeable(order);
  const open = await cq.openChangeOf(tctx.tx, order.id);
  if (open)
    throw errors.notAllowed('order_change_not_active', {
      detail: `Order ${order.id} already has an active ${open.change_type} change (${open.id})`,
    });
  const now = tctx.clock.now();
  return cq.insertChange(tctx.tx, {
    id: newId('ordch'),
    order_id: order.id,
    return_id: opts.return_id ?? null,
    exchange_id: opts.exchange_id ?? null,
    claim_id: opts.claim_id ?? null,
    change_type: type,
    status: 'pending',
    version: (await currentVersion(tctx, order.id)) + 1,
    description: opts.description ?? null,
    internal_note: opts.internal_note ?? null,
    created_by: tctx.actor?.id ?? null,
    requested_by: null,
    requested_at: null,
    confirmed_by: null,
    confirmed_at: null,
    declined_by: null,
    declined_reason: null,
    declined_at: null,
    canceled_by: null,
    canceled_at: null,
    metadata: null,
    created_at: now,
    updated_at: now,
  });
}

export async function addAction(
  tctx: TxCtx,
  change: cq.ChangeRow,
  action: ActionType,
  details: ActionDetails,
  amount: number,
  opts: { reference?: string; reference_id?: string; internal_note?: string | null } = {},
): Promise<void> {
  const now = tctx.clock.now();
  await cq.insertAction(tctx.tx, {
    id: newId('ordchact'),
    order_change_id: change.id,
    order_id: change.order_id,
    return_id: change.return_id,
    version: change.version,
    action,
    reference: opts.reference ?? null,
    reference_id: opts.reference_id ?? details.reference_id ?? null,
    details,
    amount,
    internal_note: opts.internal_note ?? null,
    applied: false,
    created_at: now,
    updated_at: now,
  });
}

/**
 * Confirms `change`: keeps the order as it is as the version it leaves, runs `apply` (the flow's
 * own writes: lines, return items, stock), then records the money set beside the lines and the
 * new version. Whatever `apply` throws rolls all of it back.
 */
export async function confirmChange(
  tctx: TxCtx,
  order: OrderRow,
  change: cq.ChangeRow,
  apply: (actions: cq.ActionRow[]) => Promise<void>,
): Promise<cq.ChangeRow> {
  const actions = await cq.listActionsOf(tctx.tx, [change.id]);
  const now = tctx.clock.now();
  const rows = await cq.summariesOf(tctx.tx, [order.id]);
  const row = rows.get(order.id);
  const version = row?.version ?? 1;
  if (change.version !== version + 1)
    throw errors.conflict('order_change_version_conflict', { id: change.id, made: change.version - 1, version });
  const before = await orderDetail(tctx.tx, order);
  await cq.insertVersion(tctx.tx, {
    order_id: order.id,
    version,
    snapshot: JSON.parse(JSON.stringify(before)),
    created_at: now,
  });
  await apply(actions);
  if (actions.some((a) => a.action === 'ITEM_ADD' || a.action === 'ITEM_UPDATE'))
    await recomputeOrderTotals(tctx, order.id);
  const adjusted = actions.filter(adjusts).reduce((s, a) => s + a.amount, 0);
  await cq.saveSummary(tctx.tx, {
    order_id: order.id,
    version: version + 1,
    original_order_total: row?.original_order_total ?? order.total,
    adjustment_total: (row?.adjustment_total ?? 0) + adjusted,
    updated_at: now,
  });
  await cq.markApplied(tctx.tx, change.id);
  return cq.updateChange(tctx.tx, change.id, {
    status: 'confirmed',
    confirmed_at: now,
    confirmed_by: tctx.actor?.id ?? null,
    updated_at: now,
  });
}

/**
 * The order row's totals from its lines and methods as they now are, each with the pricing it
 * keeps (tax lines, discounts): the figures placement wrote, so `total` (what the summary counts)
 * and the view's totals stay the same number after an edit adds a taxed line.
 */
export async function recomputeOrderTotals(tctx: TxCtx, orderId: string): Promise<void> {
  const t = pricedTotals(await dq.listLinesOf(tctx.tx, [orderId]), await dq.listMethodsOf(tctx.tx, [orderId]));
  const whole = (d: { integerValue: (mode: 4) => { toNumber: () => number } }) => d.integerValue(4).toNumber();
  await cq.setOrderTotals(
    tctx.tx,
    orderId,
    {
      item_total: whole(t.item_total),
      shipping_total: whole(t.shipping_total),
      tax_total: whole(t.tax_total),
      discount_total: whole(t.discount_total),
      total: chargedAmount(t),
    },
    tctx.clock.now(),
  );
}

export async function cancelChange(tctx: TxCtx, change: cq.ChangeRow): Promise<cq.ChangeRow> {
  const now = tctx.clock.now();
  return cq.updateChange(tctx.tx, change.id, {
    status: 'canceled',
    canceled_at: now,
    canceled_by: tctx.actor?.id ?? null,
    updated_at: now,
  });
}

/** Money set beside the lines that goes away without a new version (a canceled return's shipping). */
export async function adjustSummary(tctx: TxCtx, order: OrderRow, delta: number): Promise<void> {
  if (delta === 0) return;
  const row = (await cq.summariesOf(tctx.tx, [order.id])).get(order.id);
  await cq.saveSummary(tctx.tx, {
    order_id: order.id,
    version: row?.version ?? 1,
    original_order_total: row?.original_order_total ?? order.total,
    adjustment_total: (row?.adjustment_total ?? 0) + delta,
    updated_at: tctx.clock.now(),
  });
}
