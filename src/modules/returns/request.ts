import { unitsValue } from '../orders/line-value.ts';
import type { Ctx, TxCtx } from '../../platform/context.ts';
import { emit } from '../../platform/events/emit.ts';
import { errors } from '../../platform/http/errors.ts';
import { newId } from '../../platform/ids.ts';
import { assertLocation } from '../inventory/restock.ts';
import { addAction, adjustSummary, cancelChange, confirmChange, openChange } from '../orders/changes/engine.ts';
import * as cq from '../orders/changes/queries.ts';
import { orderPreview, type OrderPreview } from '../orders/changes/views.ts';
import * as dq from '../orders/desk-queries.ts';
import { onLockedOrder } from '../orders/desk.ts';
import type { OrderRow } from '../orders/queries.ts';
import { reasonsByIds } from './reason-queries.ts';
import * as rq from './queries.ts';
import type { RequestItemsInput, ReturnView, ShippingActionPatch, ShippingMethodInput } from './schema.ts';
import { cancelReturnParcels, type ReturnCarrier, shipReturnBack } from './return-fulfillment.ts';
import { calculatedLegPrice, calculatedReturnPrice, type ReturnQuotes } from './return-shipping-quote.ts';
import { returnNotFound, returnView } from './views.ts';

/**
 * Asking items back: a return opens with an order change (`return_request`), gathers
 * RETURN_ITEM and SHIPPING_ADD actions, and is confirmed as one step (event
 * order.return_requested); nothing moves on the order or its money before that.
 */

export interface ReturnAnswer {
  order_preview: OrderPreview;
  return: ReturnView;
}

/** Runs `fn` under the lock of the return's order. */
export async function onLockedReturn<T>(
  ctx: Ctx,
  returnId: string,
  fn: (tctx: TxCtx, order: OrderRow, ret: rq.ReturnRow) => Promise<T>,
): Promise<T> {
  const found = await rq.findReturn(ctx.db, returnId);
  if (!found) throw returnNotFound(returnId);
  return onLockedOrder(ctx, found.order_id, async (tctx, order) => {
    const ret = (await rq.findReturn(tctx.tx, returnId))!;
    return fn(tctx, order, ret);
  });
}

export async function answer(tctx: TxCtx, orderId: string, returnId: string): Promise<ReturnAnswer> {
  const order = (await dq.findOrderRow(tctx.tx, orderId))!;
  return { order_preview: await orderPreview(tctx.tx, order), return: await returnView(tctx.tx, returnId) };
}

/** The return's open change of `type`, or a refusal naming what is missing. */
export async function changeOf(tctx: TxCtx, ret: rq.ReturnRow, type: cq.ChangeRow['change_type']) {
  const open = await cq.openChangeOf(tctx.tx, ret.order_id);
  if (!open || open.return_id !== ret.id || open.change_type !== type)
    throw errors.notAllowed('order_change_not_active', {
      detail:
        type === 'return_request'
          ? `Return ${ret.id} is not being requested (status ${ret.status})`
          : `Return ${ret.id} has no receipt in progress: start one with POST /admin/returns/${ret.id}/receive`,
    });
  return open;
}

export async function createReturn(
  tctx: TxCtx,
  order: OrderRow,
  input: {
    location_id?: string;
    description?: string;
    internal_note?: string;
    no_notification?: boolean;
    metadata?: Record<string, unknown> | null;
  },
  /** Given when the return is the inbound leg of an exchange or claim: that change carries it. */
  carrier?: cq.ChangeRow,
): Promise<rq.ReturnRow> {
  if (input.location_id) await assertLocation(tctx.tx, input.location_id);
  const now = tctx.clock.now();
  const id = newId('return');
  if (carrier) await cq.updateChange(tctx.tx, carrier.id, { return_id: id, updated_at: now });
  else
    await openChange(tctx, order, 'return_request', {
      return_id: id,
      description: input.description,
      internal_note: input.internal_note,
    });
  return rq.insertReturn(tctx.tx, {
    id,
    order_id: order.id,
    status: 'open',
    location_id: input.location_id ?? null,
    description: input.description ?? null,
    internal_note: input.internal_note ?? null,
    no_notification: input.no_notification ?? false,
    created_by: tctx.actor?.id ?? null,
    requested_at: null,
    received_at: null,
    canceled_at: null,
    metadata: input.metadata ?? null,
    created_at: now,
    updated_at: now,
  });
}

/**
 * RETURN_ITEM actions: at most what was fulfilled and not already asked back. With `quoting`, a
 * calculated return shipping already chosen is priced again for the items now asked back.
 */
export async function requestItems(
  tctx: TxCtx,
  ret: rq.ReturnRow,
  input: RequestItemsInput,
  quoting?: { order: OrderRow; quotes: ReturnQuotes },
): Promise<void> {
  const change = await changeOf(tctx, ret, 'return_request');
  await returnItemActions(tctx, change, input);
  if (quoting) await requoteLeg(tctx, quoting.order, change, 'inbound', quoting.quotes);
}

/**
 * RETURN_ITEM actions of any change with a return (a return, an exchange's or claim's inbound
 * leg). With `deduct` the items are credited when the change is confirmed (an exchange).
 */
export async function returnItemActions(
  tctx: TxCtx,
  change: cq.ChangeRow,
  input: RequestItemsInput,
  opts: { deduct?: boolean } = {},
): Promise<void> {
  const lines = new Map((await dq.listLinesOf(tctx.tx, [change.order_id])).map((l) => [l.id, l]));
  const asked = await rq.requestedByLine(tctx.tx, change.order_id);
  for (const a of await cq.listActionsOf(tctx.tx, [change.id]))
    if (a.action === 'RETURN_ITEM')
      asked.set(a.reference_id!, (asked.get(a.reference_id!) ?? 0) + (a.details.quantity ?? 0));
  const reasonIds = [...new Set(input.items.flatMap((i) => (i.reason_id ? [i.reason_id] : [])))];
  const reasons = new Set((await reasonsByIds(tctx.tx, reasonIds)).map((r) => r.id));
  for (const item of input.items) {
    const line = lines.get(item.id);
    if (!line) throw errors.invalid('order_item_not_found', { id: item.id });
    if (item.reason_id && !reasons.has(item.reason_id))
      throw errors.notFound('return_reason_not_found', { id: item.reason_id });
    const left = line.fulfilled_quantity - (asked.get(item.id) ?? 0);
    if (item.quantity > left) throw errors.invalid('return_quantity_exceeds_fulfilled', { id: item.id });
    asked.set(item.id, (asked.get(item.id) ?? 0) + item.quantity);
    const details = {
      reference_id: item.id,
      quantity: item.quantity,
      reason_id: item.reason_id ?? null,
      note: item.description ?? null,
      metadata: item.metadata ?? null,
      ...(opts.deduct ? { deduct: true } : {}),
    };
    const value = unitsValue(line, item.quantity);
    await addAction(tctx, change, 'RETURN_ITEM', details, opts.deduct ? -value : value, {
      reference: 'return',
      reference_id: item.id,
      internal_note: item.internal_note,
    });
  }
}

/** Changes the return shipping being requested (`POST /admin/returns/{id}/shipping-method/{action_id}`). */
export async function updateReturnShipping(
  tctx: TxCtx,
  ret: rq.ReturnRow,
  actionId: string,
  patch: ShippingActionPatch,
  quoting: { order: OrderRow; quotes: ReturnQuotes },
): Promise<void> {
  const change = await changeOf(tctx, ret, 'return_request');
  if (!(await updateShippingAction(tctx, change, actionId, 'inbound', patch, quoting)))
    throw errors.notFound('return_action_not_found', { id: actionId, return: ret.id });
}

/**
 * The return shipping the shopper pays for: an operator's custom amount, else the option's price,
 * or for a `calculated` option its carrier's quote for the items asked back (with `quoting`: the
 * quotes asked outside the lock, return-shipping-quote.ts).
 */
export async function addShipping(
  tctx: TxCtx,
  ret: rq.ReturnRow,
  input: ShippingMethodInput,
  quoting?: { order: OrderRow; quotes: ReturnQuotes },
): Promise<void> {
  const change = await changeOf(tctx, ret, 'return_request');
  let amount: number | undefined;
  if (quoting && input.custom_amount === undefined) {
    const actions = await cq.listActionsOf(tctx.tx, [change.id]);
    const quoted = await calculatedReturnPrice(
      tctx,
      quoting.order,
      change,
      actions,
      input.shipping_option_id,
      quoting.quotes,
    );
    amount = quoted ?? undefined;
  }
  await shippingAction(tctx, change, input, 'inbound', amount);
}

/**
 * The change's SHIPPING_ADD of one direction (replacing an earlier one): `inbound` brings items
 * back, `outbound` sends an exchange's or claim's new items.
 */
export async function shippingAction(
  tctx: TxCtx,
  change: cq.ChangeRow,
  input: ShippingMethodInput,
  direction: 'inbound' | 'outbound',
  quoted?: number,
): Promise<void> {
  const option = await rq.findShippingOption(tctx.tx, input.shipping_option_id);
  if (!option) throw errors.notFound('shipping_option_not_found', { id: input.shipping_option_id });
  const existing = (await cq.listActionsOf(tctx.tx, [change.id])).find(
    (a) => a.action === 'SHIPPING_ADD' && (a.details.direction ?? 'inbound') === direction,
  );
  if (existing) await cq.deleteAction(tctx.tx, existing.id);
  const details = {
    shipping_option_id: option.id,
    name: option.name,
    description: input.description ?? null,
    direction,
    // An operator's price stays when the leg's items change (requoteLeg).
    ...(input.custom_amount !== undefined ? { is_custom_amount: true } : {}),
    ...(input.metadata !== undefined ? { metadata: input.metadata } : {}),
  };
  await addAction(tctx, change, 'SHIPPING_ADD', details, input.custom_amount ?? quoted ?? option.amount, {
    reference: 'order_shipping_method',
    reference_id: newId('ordsm'),
    internal_note: input.internal_note,
  });
}

/**
 * Changes the change's pending SHIPPING_ADD `actionId` of one direction in place (a return's, an
 * exchange's or a claim's, as Medusa's update-shipping-method routes): `custom_amount` sets its
 * price and `null` puts back the option's own (a calculated option's: its carrier's quote, asked
 * outside the lock through `quoting`); `internal_note` and `metadata` (`null` clears).
 * False when the change has no such action: the caller names the refusal.
 */
export async function updateShippingAction(
  tctx: TxCtx,
  change: cq.ChangeRow,
  actionId: string,
  direction: 'inbound' | 'outbound',
  patch: ShippingActionPatch,
  quoting: { order: OrderRow; quotes: ReturnQuotes },
): Promise<boolean> {
  const actions = await cq.listActionsOf(tctx.tx, [change.id]);
  const action = actions.find(
    (a) => a.id === actionId && a.action === 'SHIPPING_ADD' && (a.details.direction ?? 'inbound') === direction,
  );
  if (!action) return false;
  let amount = action.amount;
  let details = patch.metadata === undefined ? action.details : { ...action.details, metadata: patch.metadata };
  if (patch.custom_amount !== undefined) {
    const { is_custom_amount: _, ...rest } = details;
    details = patch.custom_amount === null ? rest : { ...rest, is_custom_amount: true };
  }
  if (patch.custom_amount === null) {
    const optionId = action.details.shipping_option_id;
    const option = optionId ? await rq.findShippingOption(tctx.tx, optionId) : undefined;
    if (!option) throw errors.notFound('shipping_option_not_found', { id: optionId ?? '' });
    // A calculated option's own price is its carrier's quote for the leg's items as they are now.
    const { order, quotes } = quoting;
    amount = (await calculatedLegPrice(tctx, order, change, actions, option.id, direction, quotes)) ?? option.amount;
  } else if (patch.custom_amount !== undefined) amount = patch.custom_amount;
  await cq.updateAction(tctx.tx, action.id, {
    amount,
    details,
    internal_note: patch.internal_note === undefined ? action.internal_note : patch.internal_note,
    updated_at: tctx.clock.now(),
  });
  return true;
}

/**
 * The leg's items changed (`direction`: the items asked back, or an exchange's or claim's new items
 * sent): its shipping by a calculated option is priced again by its carrier for the items as they
 * are now (asked outside the lock through `quotes`, as when it was added). An operator's custom
 * amount stays; a leg left without items keeps its price until items come back.
 */
export async function requoteLeg(
  tctx: TxCtx,
  order: OrderRow,
  change: cq.ChangeRow,
  direction: 'inbound' | 'outbound',
  quotes: ReturnQuotes,
): Promise<void> {
  const actions = await cq.listActionsOf(tctx.tx, [change.id]);
  const shipping = actions.find((a) => a.action === 'SHIPPING_ADD' && (a.details.direction ?? 'inbound') === direction);
  const optionId = shipping?.details.shipping_option_id;
  if (!shipping || !optionId || shipping.details.is_custom_amount) return;
  const itemAction = direction === 'inbound' ? 'RETURN_ITEM' : 'ITEM_ADD';
  if (!actions.some((a) => a.action === itemAction && (a.details.quantity ?? 0) > 0)) return;
  const quoted = await calculatedLegPrice(tctx, order, change, actions, optionId, direction, quotes);
  if (quoted === null || quoted === shipping.amount) return;
  await cq.updateAction(tctx.tx, shipping.id, { amount: quoted, updated_at: tctx.clock.now() });
}

/**
 * Removes (or, with `quantity`, changes) a pending RETURN_ITEM or SHIPPING_ADD action; with
 * `quoting`, a calculated return shipping is priced again for the items left.
 */
export async function editRequestAction(
  tctx: TxCtx,
  ret: rq.ReturnRow,
  actionId: string,
  kind: 'RETURN_ITEM' | 'SHIPPING_ADD',
  patch: { quantity?: number; reason_id?: string | null; internal_note?: string | null } | null,
  quoting?: { order: OrderRow; quotes: ReturnQuotes },
): Promise<void> {
  const change = await changeOf(tctx, ret, 'return_request');
  const action = (await cq.listActionsOf(tctx.tx, [change.id])).find((a) => a.id === actionId && a.action === kind);
  if (!action) throw errors.notFound('return_action_not_found', { id: actionId, return: ret.id });
  await cq.deleteAction(tctx.tx, action.id);
  if (!patch) {
    if (quoting && kind === 'RETURN_ITEM') await requoteLeg(tctx, quoting.order, change, 'inbound', quoting.quotes);
    return;
  }
  await requestItems(
    tctx,
    ret,
    {
      items: [
        {
          id: action.reference_id!,
          quantity: patch.quantity ?? action.details.quantity!,
          reason_id: (patch.reason_id === undefined ? action.details.reason_id : patch.reason_id) ?? undefined,
          internal_note: (patch.internal_note === undefined ? action.internal_note : patch.internal_note) ?? undefined,
        },
      ],
    },
    quoting,
  );
}

/**
 * Confirms the request: the items become the return's, its shipping the order's; with return
 * shipping, its provider makes the parcel (return-fulfillment.ts).
 */
export async function confirmRequest(
  tctx: TxCtx,
  order: OrderRow,
  ret: rq.ReturnRow,
  carrier: ReturnCarrier,
  noNotification?: boolean,
) {
  const change = await changeOf(tctx, ret, 'return_request');
  const actions = await cq.listActionsOf(tctx.tx, [change.id]);
  if (!actions.some((a) => a.action === 'RETURN_ITEM')) throw errors.invalid('return_has_no_items', { id: ret.id });
  const now = tctx.clock.now();
  await confirmChange(tctx, order, change, (all) => writeReturnItems(tctx, ret, all));
  const no_notification = noNotification ?? ret.no_notification;
  await rq.updateReturn(tctx.tx, ret.id, { status: 'requested', requested_at: now, no_notification, updated_at: now });
  await emit(tctx, 'order.return_requested', { id: order.id, order_id: order.id, return_id: ret.id, no_notification });
  await shipReturnBack(tctx, order, ret, actions, carrier);
}

/** The return's items from the RETURN_ITEM actions of a change being confirmed. */
export async function writeReturnItems(tctx: TxCtx, ret: rq.ReturnRow, actions: cq.ActionRow[]): Promise<void> {
  const now = tctx.clock.now();
  for (const a of actions.filter((x) => x.action === 'RETURN_ITEM'))
    await rq.insertReturnItem(tctx.tx, {
      id: newId('retitem'),
      return_id: ret.id,
      order_id: ret.order_id,
      item_id: a.reference_id!,
      quantity: a.details.quantity!,
      received_quantity: 0,
      damaged_quantity: 0,
      reason_id: a.details.reason_id ?? null,
      note: (a.details.note as string | null) ?? null,
      metadata: (a.details.metadata as Record<string, unknown> | null) ?? null,
      created_at: now,
      updated_at: now,
    });
}

/** Drops a return still being put together, with its change (and any label attempt made for it). */
export async function cancelRequest(tctx: TxCtx, ret: rq.ReturnRow, carrier: ReturnCarrier): Promise<void> {
  carrier.sweepAfter(ret.order_id);
  const change = await changeOf(tctx, ret, 'return_request');
  await cancelChange(tctx, change);
  const now = tctx.clock.now();
  await rq.updateReturn(tctx.tx, ret.id, { status: 'canceled', canceled_at: now, updated_at: now });
}

/** `POST /admin/returns/{id}/cancel`: only while nothing was received; its parcel is canceled at the carrier. */
export async function cancelReturn(
  tctx: TxCtx,
  order: OrderRow,
  ret: rq.ReturnRow,
  carrier: ReturnCarrier,
): Promise<void> {
  if (ret.status === 'canceled') return;
  if (ret.status === 'received' || ret.status === 'partially_received')
    throw errors.notAllowed('return_received_not_cancelable', { id: ret.id });
  const open = await cq.openChangeOf(tctx.tx, ret.order_id);
  if (open?.return_id === ret.id) await cancelChange(tctx, open);
  // The shopper no longer pays for shipping a parcel that will not come.
  const shipping = (await returnView(tctx.tx, ret.id)).shipping_methods.reduce((s, m) => s + m.amount, 0);
  await adjustSummary(tctx, order, -shipping);
  await cancelReturnParcels(tctx, ret, carrier);
  const now = tctx.clock.now();
  await rq.updateReturn(tctx.tx, ret.id, { status: 'canceled', canceled_at: now, updated_at: now });
}
