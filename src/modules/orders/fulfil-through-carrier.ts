import { sql } from 'drizzle-orm';
import type { Ctx, TxCtx } from '../../platform/context.ts';
import { rows, type Tx } from '../../platform/db/database.ts';
import { emit } from '../../platform/events/emit.ts';
import { appError, errors } from '../../platform/http/errors.ts';
import { newId } from '../../platform/ids.ts';
import type { JsonObject, Providers } from '../../platform/providers.ts';
import {
  callFulfillmentProvider,
  carrierCallLostAfterMs,
  carrierLabels,
  isProviderTimeout,
  MANUAL_PROVIDER,
} from '../fulfillment/providers.ts';
import { fulfilLines } from '../inventory/order-stock.ts';
import { findShippingOption } from '../shipping-options/service.ts';
import * as dq from './desk-queries.ts';
import { onLockedOrder, orderCanceled, settle } from './desk.ts';
import type { AdminOrderView, FulfillmentView } from './desk-schema.ts';
import { fulfillmentView, orderDetail } from './desk-view.ts';
import type { CreateFulfillmentInput } from './desk-schema.ts';
import type { FulfillmentLabelJson } from './fulfillment-tables.ts';
import type { OrderLineRow, OrderRow } from './queries.ts';
import { stockLocations as sl } from '../stock-locations/tables.ts';

/**
 * A fulfilment through its carrier, which may take seconds: the carrier is never asked while the
 * order is locked (every other write to the order would wait, holding a pooled connection).
 *   1. Under the lock: check the units (left to fulfil, less those of fulfilments whose carrier
 *      is being asked now), try the stock moves and undo them, record the fulfilment with
 *      `carrier_pending = 'calling'` (its units are held by it); commit.
 *   2. No transaction open: ask the carrier, the fulfilment's id as its idempotency key.
 *   3. Under the lock again: check again (the order may have been canceled or edited), move the
 *      stock, write the labels, lines, statuses and the event.
 * The carrier refused: the pending row is removed, the order is as before. No answer in time:
 * the row stays `unanswered`, and the same units sent again take it over and ask again with the
 * same id, so the carrier answers with its first label instead of making a second. Step 3
 * refusing cancels the carrier's shipment. The manual provider answers in process: one transaction.
 */

/**
 * What a fulfilment is made of: the order route's body, or Medusa's `POST /admin/fulfillments`
 * one, which may also bring labels the operator already has and the provider it expects.
 */
export type FulfilInput = CreateFulfillmentInput & {
  labels?: Omit<FulfillmentLabelJson, 'id'>[];
  provider_id?: string;
};

type Asks = { line: OrderLineRow; units: number }[];

interface Plan {
  id: string;
  providerId: string;
  optionId: string | null;
  /** What the carrier's createFulfillment is asked (the same on a retry). */
  request: JsonObject;
  units: Map<string, number>;
}

type Made = { order: AdminOrderView; fulfillment: FulfillmentView };

export async function fulfilThroughCarrier(
  ctx: Ctx,
  orderId: string,
  input: FulfilInput,
  units: Map<string, number>,
  providers: Providers,
): Promise<Made> {
  const first = await onLockedOrder(ctx, orderId, async (tctx, order) => {
    const plan = await planFulfilment(tctx, order, input, units, providers);
    if (plan.providerId !== MANUAL_PROVIDER) return { plan };
    const made = await callFulfillmentProvider(providers, MANUAL_PROVIDER, 'createFulfillment', plan.request);
    return { done: await complete(tctx, order, plan, made, input, false) };
  });
  if (first.done) return first.done;
  const { plan } = first;

  let made: JsonObject;
  try {
    made = await callFulfillmentProvider(providers, plan.providerId, 'createFulfillment', plan.request);
  } catch (err) {
    const timedOut = isProviderTimeout(err);
    await onLockedOrder(ctx, orderId, async (tctx) => {
      if (timedOut) await dq.markFulfillmentUnanswered(tctx.tx, plan.id, tctx.clock.now());
      else await dq.deletePendingFulfillment(tctx.tx, plan.id);
    });
    if (timedOut) throw appError('fulfillment_provider_timeout', { id: plan.providerId });
    throw err;
  }

  const outcome = await onLockedOrder(
    ctx,
    orderId,
    async (tctx, order): Promise<{ done?: Made; refused?: unknown }> => {
      const [row] = (await dq.listPendingFulfillmentsOf(tctx.tx, order.id)).filter((f) => f.id === plan.id);
      if (!row) return { done: await madeMeanwhile(tctx, order, plan.id) };
      try {
        return { done: await inSavepoint(tctx.tx, () => complete(tctx, order, plan, made, input, true)) };
      } catch (refused) {
        // The order changed while the carrier was asked: nothing of this fulfilment stays.
        await dq.deletePendingFulfillment(tctx.tx, plan.id);
        return { refused };
      }
    },
  );
  if (outcome.done) return outcome.done;
  await cancelAtCarrier(ctx, providers, plan, made);
  throw outcome.refused;
}

/** Step 1: what to fulfil, checked; for a plugin's carrier, the pending row that holds its units. */
async function planFulfilment(
  tctx: TxCtx,
  order: OrderRow,
  input: FulfilInput,
  units: Map<string, number>,
  providers: Providers,
): Promise<Plan> {
  if (order.status === 'canceled') throw orderCanceled(order.id);
  const { option, methodData } = await optionOf(tctx, order, input.shipping_option_id);
  const providerId = option?.provider_id ?? MANUAL_PROVIDER;
  if (input.provider_id && input.provider_id !== providerId)
    throw errors.invalid('fulfillment_provider_mismatch', { id: input.provider_id, expected: providerId });
  const now = tctx.clock.now();
  const locationId = input.location_id ?? null;
  const manual = providerId === MANUAL_PROVIDER;
  const pending = manual ? [] : await dq.listPendingFulfillmentsOf(tctx.tx, order.id);
  const live = (f: dq.FulfillmentRow) =>
    f.carrier_pending === 'calling' && now.getTime() - f.updated_at.getTime() < carrierCallLostAfterMs(providers);
  // A retry of units whose carrier did not answer takes that row over: same id, same idempotency key.
  const retried = pending.find(
    (f) =>
      !live(f) &&
      f.provider_id === providerId &&
      f.shipping_option_id === (option?.id ?? null) &&
      f.location_id === locationId &&
      sameUnits(f, units),
  );
  const held = new Map<string, number>();
  for (const f of pending.filter((p) => live(p) && p !== retried))
    for (const i of f.items) held.set(i.line_item_id, (held.get(i.line_item_id) ?? 0) + i.quantity);

  const lines = await dq.listLinesOf(tctx.tx, [order.id]);
  const asks = asksOf(order, lines, units, held);
  const id = retried?.id ?? newId('ful');
  const items = asks.map(({ line, units: quantity }) => ({
    id: newId('fulit'),
    line_item_id: line.id,
    title: line.title,
    sku: line.variant_sku,
    quantity,
  }));
  // Where the stock would leave from (a stock refusal answers now, before the carrier makes a label).
  const from = manual
    ? []
    : await inSavepoint(
        tctx.tx,
        async () => (await fulfilLines(tctx.tx, asks, locationId, now)).moves.map((m) => m.location_id),
        { undo: true },
      );
  const origin = locationId ?? (new Set(from).size === 1 ? from[0] : null);
  const request = {
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
    from_location: origin ? { id: origin, name: (await locationName(tctx, origin)) ?? origin } : null,
  };
  if (retried) {
    if (
      !(await dq.claimPendingFulfillment(tctx.tx, retried.id, retried.carrier_pending as 'calling' | 'unanswered', now))
    )
      throw errors.conflict('fulfillment_units_pending', { id: asks[0].line.id, pending: asks[0].units });
  } else if (!manual) {
    await dq.insertFulfillment(tctx.tx, {
      id,
      order_id: order.id,
      location_id: locationId,
      shipping_option_id: option?.id ?? null,
      provider_id: providerId,
      data: null,
      items,
      labels: [],
      carrier_pending: 'calling',
      no_notification: input.no_notification ?? false,
      created_by: tctx.actor?.id ?? null,
      metadata: input.metadata ?? null,
      created_at: now,
      updated_at: now,
    });
  }
  return { id, providerId, optionId: option?.id ?? null, request, units };
}

/** Per line asked for: the units, when they are left to fulfil and not held by a carrier call under way. */
function asksOf(order: OrderRow, lines: OrderLineRow[], units: Map<string, number>, held: Map<string, number>): Asks {
  return [...units].map(([lineId, quantity]) => {
    const line = lines.find((l) => l.id === lineId);
    if (!line) throw errors.invalid('fulfillment_item_not_in_order', { id: lineId, order: order.id });
    const left = line.quantity - line.fulfilled_quantity;
    if (quantity > left)
      throw errors.notAllowed('fulfillment_quantity_exceeded', { quantity, id: lineId, left, total: line.quantity });
    const pending = held.get(lineId) ?? 0;
    if (quantity > left - pending) throw errors.conflict('fulfillment_units_pending', { id: lineId, pending });
    return { line, units: quantity };
  });
}

function sameUnits(f: dq.FulfillmentRow, units: Map<string, number>): boolean {
  return f.items.length === units.size && f.items.every((i) => units.get(i.line_item_id) === i.quantity);
}

/**
 * Step 3 (or the manual provider's only step): the units checked again, the stock moved, the
 * carrier's labels and data written, the order's statuses settled, `order.fulfilled` emitted.
 */
async function complete(
  tctx: TxCtx,
  order: OrderRow,
  plan: Plan,
  made: JsonObject,
  input: FulfilInput,
  pending: boolean,
): Promise<Made> {
  if (order.status === 'canceled') throw orderCanceled(order.id);
  const now = tctx.clock.now();
  const lines = await dq.listLinesOf(tctx.tx, [order.id]);
  const asks = asksOf(order, lines, plan.units, new Map());
  // The units' reservations become stock leaving the chosen location (the reserving one by default).
  const { moves, released } = await fulfilLines(tctx.tx, asks, input.location_id ?? null, now);
  for (const { line, units } of asks)
    await dq.updateLineRow(tctx.tx, line.id, {
      fulfilled_quantity: line.fulfilled_quantity + units,
      reserved_quantity: line.reserved_quantity - (released.get(line.id) ?? 0),
      updated_at: now,
    });
  const from = [...new Set(moves.map((m) => m.location_id))];
  const locationId = input.location_id ?? (from.length === 1 ? from[0] : null);
  const labels = carrierLabels(made, () => newId('fulla'));
  for (const l of input.labels ?? []) labels.push({ id: newId('fulla'), ...l });
  const data = (made.data as Record<string, unknown> | undefined) ?? null;
  const done = { data, labels, stock_moves: moves, location_id: locationId, updated_at: now };
  const fulfillment = pending
    ? await dq.completePendingFulfillment(tctx.tx, plan.id, done)
    : await dq.insertFulfillment(tctx.tx, {
        ...done,
        id: plan.id,
        order_id: order.id,
        shipping_option_id: plan.optionId,
        provider_id: plan.providerId,
        items: asks.map(({ line, units }) => ({
          id: newId('fulit'),
          line_item_id: line.id,
          title: line.title,
          sku: line.variant_sku,
          quantity: units,
        })),
        no_notification: input.no_notification ?? false,
        created_by: tctx.actor?.id ?? null,
        metadata: input.metadata ?? null,
        created_at: now,
      });
  if (!fulfillment) throw errors.notFound('fulfillment_not_found', { id: plan.id });
  const view = await orderDetail(tctx.tx, await settle(tctx, order));
  const payload = {
    id: order.id,
    order_id: order.id,
    fulfillment: fulfillmentView(fulfillment),
    no_notification: fulfillment.no_notification,
  };
  await emit(tctx, 'order.fulfilled', payload);
  return { order: view, fulfillment: payload.fulfillment };
}

/** A retry took the row over and completed it first: the same fulfilment (the carrier's same label). */
async function madeMeanwhile(tctx: TxCtx, order: OrderRow, id: string): Promise<Made> {
  const f = (await dq.listFulfillmentsOf(tctx.tx, [order.id])).find((x) => x.id === id);
  if (!f) throw errors.notFound('fulfillment_not_found', { id });
  return { order: await orderDetail(tctx.tx, order), fulfillment: fulfillmentView(f) };
}

/** Step 3 refused after the carrier made a label: the label is canceled (a failure is logged, the refusal stands). */
async function cancelAtCarrier(ctx: Ctx, providers: Providers, plan: Plan, made: JsonObject): Promise<void> {
  try {
    await callFulfillmentProvider(providers, plan.providerId, 'cancelFulfillment', {
      fulfillment_id: plan.id,
      data: (made.data ?? {}) as JsonObject,
    });
  } catch (err) {
    ctx.log.warn({ err, fulfillment_id: plan.id }, 'carrier label of a refused fulfilment not canceled');
  }
}

/**
 * Runs `fn` in a savepoint of the transaction: undone when it throws (the transaction goes on,
 * so the caller can still write), and also when it succeeds with `undo` (a trial run).
 */
async function inSavepoint<T>(tx: Tx, fn: () => Promise<T>, opts: { undo?: boolean } = {}): Promise<T> {
  await tx.execute(sql`savepoint fulfil_step`);
  try {
    const result = await fn();
    await tx.execute(opts.undo ? sql`rollback to savepoint fulfil_step` : sql`release savepoint fulfil_step`);
    return result;
  } catch (err) {
    await tx.execute(sql`rollback to savepoint fulfil_step`);
    throw err;
  }
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

async function locationName(tctx: TxCtx, id: string): Promise<string | undefined> {
  const [row] = await rows<{ name: string }>(tctx.tx, sql`select ${sl.name} from ${sl} where ${sl.id} = ${id}`);
  return row?.name;
}
