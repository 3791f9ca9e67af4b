import type { Ctx, TxCtx } from '../../platform/context.ts';
import { emit } from '../../platform/events/emit.ts';
import { errors } from '../../platform/http/errors.ts';
import { newId } from '../../platform/ids.ts';
import { undoMoves } from '../inventory/order-stock.ts';
import { callFulfillmentProvider, MANUAL_PROVIDER } from '../fulfillment/providers.ts';
import type { JsonObject, Providers } from '../../platform/providers.ts';
import { fulfilThroughCarrier, type FulfilInput } from './fulfil-through-carrier.ts';
import * as dq from './desk-queries.ts';
import { onLockedOrder, orderCanceled, settle } from './desk.ts';
import type {
  AdminOrderView,
  CreateFulfillmentInput,
  CreateShipmentInput,
  FulfillmentView,
  LineRefInput,
} from './desk-schema.ts';
import { fulfillmentView, orderDetail } from './desk-view.ts';
import type { OrderRow } from './queries.ts';

/**
 * Fulfillments of an order: created → shipped → delivered, or canceled while not shipped.
 * Each step keeps the lines' fulfilled/shipped quantities and the order's fulfillment_status in step.
 */

/** Per order line, the units asked for; each entry names its line by exactly one of item_id (ours) or id (Medusa's). */
function unitsByLine(refs: LineRefInput[]): Map<string, number> {
  const units = new Map<string, number>();
  for (const ref of refs) {
    const lineId = ref.item_id ?? ref.id;
    if (!lineId || (ref.item_id && ref.id)) throw errors.invalid('fulfillment_item_reference_invalid');
    units.set(lineId, (units.get(lineId) ?? 0) + ref.quantity);
  }
  return units;
}

/** The order's fulfilment for a step; one being canceled at its carrier only for that cancellation. */
async function lockedFulfillment(
  tctx: TxCtx,
  order: OrderRow,
  fulfillmentId: string,
  opts: { canceling?: boolean } = {},
): Promise<dq.FulfillmentRow> {
  if (order.status === 'canceled') throw orderCanceled(order.id);
  const f = (await dq.listFulfillmentsOf(tctx.tx, [order.id])).find((x) => x.id === fulfillmentId);
  if (!f) throw errors.notFound('fulfillment_not_found', { id: fulfillmentId });
  if (f.canceled_at) throw errors.notAllowed('fulfillment_canceled', { id: f.id });
  if (f.carrier_pending === 'canceling' && !opts.canceling)
    throw errors.conflict('fulfillment_cancel_pending', { id: f.id });
  return f;
}

export type { FulfilInput };

/** `POST /admin/orders/{id}/fulfillments`: through the provider of its shipping option (labels, tracking). */
export async function createFulfillment(
  ctx: Ctx,
  orderId: string,
  input: CreateFulfillmentInput,
  providers: Providers,
): Promise<AdminOrderView> {
  return (await fulfilOrder(ctx, orderId, input, providers)).order;
}

/** Fulfils order lines; answers the order and the fulfilment made (fulfil-through-carrier.ts). */
export function fulfilOrder(
  ctx: Ctx,
  orderId: string,
  input: FulfilInput,
  providers: Providers,
): Promise<{ order: AdminOrderView; fulfillment: FulfillmentView }> {
  return fulfilThroughCarrier(ctx, orderId, input, unitsByLine(input.items), providers);
}

/** A shipment ships the whole fulfillment: `items`, when sent, must list exactly its items and quantities. */
function assertWholeFulfillment(f: dq.FulfillmentRow, refs: LineRefInput[] | undefined): void {
  if (!refs) return;
  const asked = unitsByLine(refs);
  const whole = f.items.length === asked.size && f.items.every((i) => asked.get(i.line_item_id) === i.quantity);
  if (!whole) throw errors.invalid('shipment_items_incomplete', { id: f.id });
}

/** `POST /admin/orders/{id}/fulfillments/{fid}/shipments`. */
export function createShipment(
  ctx: Ctx,
  orderId: string,
  fulfillmentId: string,
  input: CreateShipmentInput,
): Promise<AdminOrderView> {
  return onLockedOrder(ctx, orderId, async (tctx, order) => {
    const f = await lockedFulfillment(tctx, order, fulfillmentId);
    if (f.shipped_at) throw errors.notAllowed('fulfillment_already_shipped', { id: f.id });
    assertWholeFulfillment(f, input.items);
    const now = tctx.clock.now();
    const lines = await dq.listLinesOf(tctx.tx, [order.id]);
    for (const item of f.items) {
      const line = lines.find((l) => l.id === item.line_item_id)!;
      await dq.updateLineRow(tctx.tx, line.id, {
        shipped_quantity: line.shipped_quantity + item.quantity,
        updated_at: now,
      });
    }
    const labels = [...f.labels, ...(input.labels ?? []).map((l) => ({ id: newId('fulla'), ...l }))];
    const shipped = await dq.updateFulfillmentRow(tctx.tx, f.id, { shipped_at: now, labels, updated_at: now });
    const view = await orderDetail(tctx.tx, await settle(tctx, order));
    const noNotification = input.no_notification ?? f.no_notification;
    await emit(tctx, 'order.shipped', {
      id: order.id,
      order_id: order.id,
      fulfillment: fulfillmentView(shipped),
      no_notification: noNotification,
    });
    return view;
  });
}

/** `POST …/fulfillments/{fid}/mark-as-delivered`: only after it shipped, and once. */
export function markDelivered(ctx: Ctx, orderId: string, fulfillmentId: string): Promise<AdminOrderView> {
  return onLockedOrder(ctx, orderId, async (tctx, order) => {
    const f = await lockedFulfillment(tctx, order, fulfillmentId);
    if (f.delivered_at) throw errors.notAllowed('fulfillment_already_delivered');
    if (!f.shipped_at) throw errors.notAllowed('fulfillment_not_shipped', { id: f.id });
    const now = tctx.clock.now();
    await dq.updateFulfillmentRow(tctx.tx, f.id, { delivered_at: now, updated_at: now });
    return orderDetail(tctx.tx, await settle(tctx, order));
  });
}

/**
 * `POST …/fulfillments/{fid}/cancel`: only before it ships; its units become unfulfilled again.
 * A plugin's carrier cancels it first, asked with the order unlocked: the fulfilment is marked
 * `canceling` (no shipment meanwhile), the carrier is asked, then it is canceled under the lock, or
 * (the carrier refused) unmarked, as it was. Sending the cancellation again retries a stuck one.
 */
export async function cancelFulfillment(
  ctx: Ctx,
  orderId: string,
  fulfillmentId: string,
  providers: Providers,
): Promise<AdminOrderView> {
  const first = await onLockedOrder(ctx, orderId, async (tctx, order) => {
    const f = await lockedFulfillment(tctx, order, fulfillmentId, { canceling: true });
    if (f.shipped_at) throw errors.notAllowed('fulfillment_shipped_not_cancelable', { id: f.id });
    if (!f.provider_id || f.provider_id === MANUAL_PROVIDER) return { done: await undoFulfillment(tctx, order, f) };
    await dq.markFulfillmentCanceling(tctx.tx, f.id, tctx.clock.now());
    return { f };
  });
  if (first.done) return first.done;
  const { f } = first;
  try {
    await callFulfillmentProvider(providers, f.provider_id as string, 'cancelFulfillment', {
      fulfillment_id: f.id,
      data: (f.data ?? {}) as JsonObject,
    });
  } catch (err) {
    await onLockedOrder(ctx, orderId, (tctx) => dq.clearFulfillmentCanceling(tctx.tx, f.id, tctx.clock.now()));
    throw err;
  }
  return onLockedOrder(ctx, orderId, async (tctx, order) =>
    undoFulfillment(tctx, order, await lockedFulfillment(tctx, order, fulfillmentId, { canceling: true })),
  );
}

/** A fulfilment canceled: the stock it took goes back to its location, held again for its lines. */
async function undoFulfillment(tctx: TxCtx, order: OrderRow, f: dq.FulfillmentRow): Promise<AdminOrderView> {
  const now = tctx.clock.now();
  const lines = await dq.listLinesOf(tctx.tx, [order.id]);
  await undoMoves(tctx.tx, f.stock_moves, now);
  const moved = new Set(f.stock_moves.map((m) => m.line_item_id));
  for (const item of f.items) {
    const line = lines.find((l) => l.id === item.line_item_id)!;
    await dq.updateLineRow(tctx.tx, line.id, {
      fulfilled_quantity: line.fulfilled_quantity - item.quantity,
      reserved_quantity: line.reserved_quantity + (moved.has(line.id) ? item.quantity : 0),
      updated_at: now,
    });
  }
  await dq.updateFulfillmentRow(tctx.tx, f.id, { canceled_at: now, carrier_pending: null, updated_at: now });
  return orderDetail(tctx.tx, await settle(tctx, order));
}
