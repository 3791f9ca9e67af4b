import { executor, type Ctx } from '../../platform/context.ts';
import { errors } from '../../platform/http/errors.ts';
import type { Providers } from '../../platform/providers.ts';
import * as dq from './desk-queries.ts';
import type { AdminOrderView, FulfillmentView } from './desk-schema.ts';
import { cancelFulfillment, createShipment, fulfilOrder } from './fulfillment-actions.ts';
import type { CreateFulfillmentRequestInput, ShipFulfillmentRequestInput } from './fulfillment-schema.ts';

/**
 * Medusa's `/admin/fulfillments` routes, which name a fulfilment by its own id: each finds the
 * fulfilment's order and runs the order desk's own step (fulfillment-actions.ts) under its lock.
 */

async function orderOf(ctx: Ctx, fulfillmentId: string): Promise<string> {
  const found = await dq.findFulfillmentRow(executor(ctx), fulfillmentId);
  if (!found) throw errors.notFound('fulfillment_not_found', { id: fulfillmentId });
  return found.order_id;
}

const pick = (order: AdminOrderView, id: string): FulfillmentView => order.fulfillments.find((f) => f.id === id)!;

/** `POST /admin/fulfillments`: fulfils the named lines of `order_id`. */
export async function createOrderFulfillment(
  ctx: Ctx,
  input: CreateFulfillmentRequestInput,
  providers: Providers,
): Promise<FulfillmentView> {
  const made = await fulfilOrder(
    ctx,
    input.order_id,
    {
      items: input.items.map((i) => ({ id: i.line_item_id, quantity: i.quantity })),
      location_id: input.location_id ?? undefined,
      shipping_option_id: input.shipping_option_id ?? undefined,
      provider_id: input.provider_id,
      labels: input.labels,
      no_notification: input.no_notification,
      metadata: input.metadata,
    },
    providers,
  );
  return made.fulfillment;
}

/** `POST /admin/fulfillments/{id}/cancel`. */
export async function cancelFulfillmentById(ctx: Ctx, id: string, providers: Providers): Promise<FulfillmentView> {
  return pick(await cancelFulfillment(ctx, await orderOf(ctx, id), id, providers), id);
}

/** `POST /admin/fulfillments/{id}/shipment`: ships the whole fulfilment with these labels. */
export async function shipFulfillmentById(
  ctx: Ctx,
  id: string,
  input: ShipFulfillmentRequestInput,
): Promise<FulfillmentView> {
  return pick(await createShipment(ctx, await orderOf(ctx, id), id, { labels: input.labels }), id);
}
