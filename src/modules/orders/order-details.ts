import { executor, type Ctx } from '../../platform/context.ts';
import { emit } from '../../platform/events/emit.ts';
import { errors } from '../../platform/http/errors.ts';
import type { Executor } from '../../platform/db/database.ts';
import { toAddress } from '../carts/addresses.ts';
import type { AddressInputT } from '../carts/schema.ts';
import type { AddressJson } from '../carts/tables.ts';
import { listVersionsOf } from './changes/queries.ts';
import * as dq from './desk-queries.ts';
import { onLockedOrder, orderCanceled, orderNotFound } from './desk.ts';
import type { AdminOrderView, DeskLineItemView } from './desk-schema.ts';
import { orderDetail } from './desk-view.ts';
import type { OrderItemsQueryInput, UpdateOrderInput } from './order-details-schema.ts';

/**
 * `POST /admin/orders/{id}`: an operator corrects the email, the addresses or the metadata, as
 * Medusa's updateOrderWorkflow allows (not on a canceled order; an address keeps its country,
 * which the order's taxes and shipping were priced for). Event `order.updated`.
 */
export function updateOrderDetails(ctx: Ctx, id: string, input: UpdateOrderInput): Promise<AdminOrderView> {
  return onLockedOrder(ctx, id, async (tctx, order) => {
    if (order.status === 'canceled') throw orderCanceled(order.id);
    const patch: dq.OrderDetailsPatch = { updated_at: tctx.clock.now() };
    if (input.email !== undefined) patch.email = input.email.toLowerCase();
    if (input.shipping_address) patch.shipping_address = overwritten(order.shipping_address, input.shipping_address);
    if (input.billing_address) patch.billing_address = overwritten(order.billing_address, input.billing_address);
    if (input.metadata !== undefined) patch.metadata = input.metadata;
    const row = await dq.updateOrderDetails(tctx.tx, order.id, patch);
    await emit(tctx, 'order.updated', { id: order.id });
    return orderDetail(tctx.tx, row);
  });
}

/** The stored address with the fields sent written over it (its id and country stay). */
function overwritten(current: AddressJson | null, given: AddressInputT): AddressJson {
  const country = given.country_code?.toLowerCase();
  if (country && country !== current?.country_code) throw errors.invalid('order_address_country_changed');
  const base = current ?? toAddress({});
  const sent = Object.fromEntries(
    Object.entries(given).filter(([field, value]) => value !== undefined && field !== 'id' && field !== 'country_code'),
  );
  return { ...base, ...sent };
}

/** One of `GET /admin/orders/{id}/line-items`: Medusa's order item, the line at the order's version. */
export interface OrderItemView {
  order_id: string;
  item_id: string;
  version: number;
  currency_code: string;
  /** The versions the line is part of: from the first that had it to the current one. */
  history: { version: { from: number; to: number } };
  item: DeskLineItemView;
}

const asList = (v: string | string[] | undefined) => (v === undefined ? undefined : new Set([v].flat()));

/** The order's lines as Medusa's order items; `id` and `item_id` both name a line (ours have one id). */
export async function listOrderItems(ctx: Ctx, id: string, query: OrderItemsQueryInput): Promise<OrderItemView[]> {
  const db = executor(ctx);
  const row = await dq.findOrderRow(db, id);
  if (!row) throw orderNotFound(id);
  const order = await orderDetail(db, row);
  const firstSeen = await versionsFirstSeen(db, id);
  const ids = asList(query.id);
  const itemIds = asList(query.item_id);
  return order.items
    .filter((item) => (!ids || ids.has(item.id)) && (!itemIds || itemIds.has(item.id)))
    .map((item) => ({
      order_id: order.id,
      item_id: item.id,
      version: order.version,
      currency_code: order.currency_code,
      history: { version: { from: firstSeen.get(item.id) ?? order.version, to: order.version } },
      item,
    }));
}

/** Per line, the first version whose snapshot (the order as it was when it left that version) has it. */
async function versionsFirstSeen(db: Executor, orderId: string): Promise<Map<string, number>> {
  const firstSeen = new Map<string, number>();
  for (const v of await listVersionsOf(db, orderId)) {
    const items = (v.snapshot.items ?? []) as { id: string }[];
    for (const item of items) if (!firstSeen.has(item.id)) firstSeen.set(item.id, v.version);
  }
  return firstSeen;
}
