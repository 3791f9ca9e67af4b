import type { Ctx, TxCtx } from '../../platform/context.ts';
import { emit } from '../../platform/events/emit.ts';
import { errors } from '../../platform/http/errors.ts';
import { newId } from '../../platform/ids.ts';
import { fulfilLines, undoMoves } from '../inventory/order-stock.ts';
import { findShippingOption } from '../shipping-options/service.ts';
import { callFulfillmentProvider, MANUAL_PROVIDER } from '../fulfillment/providers.ts';
import type { JsonObject, Providers } from '../../platform/providers.ts';
import type { FulfillmentLabelJson } from './fulfillment-tables.ts';
import { sql } from 'drizzle-orm';
import { rows } from '../../platform/db/database.ts';

async function locationName(tctx: TxCtx, id: string): Promise<string | undefined> {
  const [row] = await rows<{ name: string }>(tctx.tx, sql`select name from stock_locations where id = ${id}`);
  return row?.name;
}
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

async function lockedFulfillment(tctx: TxCtx, order: OrderRow, fulfillmentId: string): Promise<dq.FulfillmentRow> {
  if (order.status === 'canceled') throw orderCanceled(order.id);
  const f = (await dq.listFulfillmentsOf(tctx.tx, [order.id])).find((x) => x.id === fulfillmentId);
  if (!f) throw errors.notFound('fulfillment_not_found', { id: fulfillmentId });
  if (f.canceled_at) throw errors.notAllowed('fulfillment_canceled', { id: f.id });
  return f;
}

/**
 * The option a fulfilment ships by: the one asked for, else the order's first shipping method's
 * (still live); none (an order without shipping): the manual provider.
 */
async function optionOf(tctx: TxCtx, order: OrderRow, asked: string | undefined) {
  if (asked) {
    const option = await findShippingOption(tctx.tx, asked);
    if (!option) throw errors.invalid('shipping_option_reference_missing', { what: 'Shipping option', id: asked });
    return { option, methodData: {} };
  }
  const [method] = (await dq.listMethodsOf(tctx.tx, [order.id])).filter((m) => m.shipping_option_id);
  const option = method ? await findShippingOption(tctx.tx, method.shipping_option_id as string) : null;
  return { option, methodData: (method?.data ?? {}) as JsonObject };
}

/**
 * What a fulfilment is made of: the order route's body, or Medusa's `POST /admin/fulfillments`
 * one, which may also bring labels the operator already has and the provider it expects.
 */
export type FulfilInput = CreateFulfillmentInput & {
  labels?: Omit<FulfillmentLabelJson, 'id'>[];
  provider_id?: string;
};

/** `POST /admin/orders/{id}/fulfillments`: through the provider of its shipping option (labels, tracking). */
export async function createFulfillment(
  ctx: Ctx,
  orderId: string,
  input: CreateFulfillmentInput,
  providers: Providers,
): Promise<AdminOrderView> {
  return (await fulfilOrder(ctx, orderId, input, providers)).order;
}

/** Fulfils order lines; answers the order and the fulfilment made. */
export function fulfilOrder(
  ctx: Ctx,
  orderId: string,
  input: FulfilInput,
  providers: Providers,
): Promise<{ order: AdminOrderView; fulfillment: FulfillmentView }> {
  const units = unitsByLine(input.items);
  return onLockedOrder(ctx, orderId, async (tctx, order) => {
    if (order.status === 'canceled') throw orderCanceled(order.id);
    const { option, methodData } = await optionOf(tctx, order, input.shipping_option_id);
    const providerId = option?.provider_id ?? MANUAL_PROVIDER;
    if (input.provider_id && input.provider_id !== providerId)
      throw errors.invalid('fulfillment_provider_mismatch', { id: input.provider_id, expected: providerId });
    const lines = await dq.listLinesOf(tctx.tx, [order.id]);
    const now = tctx.clock.now();
    const asks = [...units].map(([lineId, quantity]) => {
      const line = lines.find((l) => l.id === lineId);
      if (!line) throw errors.invalid('fulfillment_item_not_in_order', { id: lineId, order: order.id });
      const left = line.quantity - line.fulfilled_quantity;
      if (quantity > left)
        throw errors.notAllowed('fulfillment_quantity_exceeded', { quantity, id: lineId, left, total: line.quantity });
      return { line, units: quantity };
    });
    // The units' reservations become stock leaving the chosen location (the reserving one by default).
    const { moves, released } = await fulfilLines(tctx.tx, asks, input.location_id ?? null, now);
    const items = [];
    for (const { line, units: quantity } of asks) {
      await dq.updateLineRow(tctx.tx, line.id, {
        fulfilled_quantity: line.fulfilled_quantity + quantity,
        reserved_quantity: line.reserved_quantity - (released.get(line.id) ?? 0),
        updated_at: now,
      });
      items.push({ id: newId('fulit'), line_item_id: line.id, title: line.title, sku: line.variant_sku, quantity });
    }
    const from = [...new Set(moves.map((m) => m.location_id))];
    const id = newId('ful');
    const locationId = input.location_id ?? (from.length === 1 ? from[0] : null);
    // The carrier is asked last, with everything checked: a refusal (or a timeout) rolls all of it back.
    const made = await callFulfillmentProvider(providers, providerId, 'createFulfillment', {
      fulfillment_id: id,
      option_data: (option?.data ?? {}) as JsonObject,
      method_data: methodData,
      order: {
        id: order.id,
        display_id: order.display_id ?? null,
        email: order.email ?? null,
        currency_code: order.currency_code,
      },
      items: items.map(({ id: _id, ...i }) => i),
      shipping_address: (order.shipping_address ?? null) as JsonObject | null,
      from_location: locationId ? { id: locationId, name: (await locationName(tctx, locationId)) ?? locationId } : null,
    } as unknown as JsonObject);
    const labels = ((made.labels as unknown as Partial<FulfillmentLabelJson>[] | undefined) ?? []).map((l) => ({
      id: newId('fulla'),
      tracking_number: String(l.tracking_number ?? ''),
      tracking_url: String(l.tracking_url ?? ''),
      label_url: String(l.label_url ?? ''),
    }));
    for (const l of input.labels ?? []) labels.push({ id: newId('fulla'), ...l });
    const fulfillment = await dq.insertFulfillment(tctx.tx, {
      id,
      order_id: order.id,
      location_id: locationId,
      stock_moves: moves,
      shipping_option_id: option?.id ?? null,
      provider_id: providerId,
      data: (made.data as Record<string, unknown> | undefined) ?? null,
      items,
      labels,
      no_notification: input.no_notification ?? false,
      created_by: tctx.actor?.id ?? null,
      metadata: input.metadata ?? null,
      created_at: now,
      updated_at: now,
    });
    const view = await orderDetail(tctx.tx, await settle(tctx, order));
    const payload = {
      id: order.id,
      order_id: order.id,
      fulfillment: fulfillmentView(fulfillment),
      no_notification: fulfillment.no_notification,
    };
    await emit(tctx, 'order.fulfilled', payload);
    return { order: view, fulfillment: payload.fulfillment };
  });
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

/** `POST …/fulfillments/{fid}/cancel`: only before it ships (its provider cancels it too); its units become unfulfilled again. */
export function cancelFulfillment(
  ctx: Ctx,
  orderId: string,
  fulfillmentId: string,
  providers: Providers,
): Promise<AdminOrderView> {
  return onLockedOrder(ctx, orderId, async (tctx, order) => {
    const f = await lockedFulfillment(tctx, order, fulfillmentId);
    if (f.shipped_at) throw errors.notAllowed('fulfillment_shipped_not_cancelable', { id: f.id });
    if (f.provider_id && f.provider_id !== MANUAL_PROVIDER)
      await callFulfillmentProvider(providers, f.provider_id, 'cancelFulfillment', {
        fulfillment_id: f.id,
        data: (f.data ?? {}) as JsonObject,
      });
    const now = tctx.clock.now();
    const lines = await dq.listLinesOf(tctx.tx, [order.id]);
    // Stock it took goes back to its location, held again for its lines.
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
    await dq.updateFulfillmentRow(tctx.tx, f.id, { canceled_at: now, updated_at: now });
    return orderDetail(tctx.tx, await settle(tctx, order));
  });
}
