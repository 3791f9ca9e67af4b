import type { TxCtx } from '../../platform/context.ts';
import { newId } from '../../platform/ids.ts';
import type { JsonObject, Providers } from '../../platform/providers.ts';
import { callFulfillmentProvider, MANUAL_PROVIDER } from '../fulfillment/providers.ts';
import type * as cq from '../orders/changes/queries.ts';
import * as dq from '../orders/desk-queries.ts';
import type { OrderRow } from '../orders/queries.ts';
import { findShippingOption, optionLocation } from '../shipping-options/service.ts';
import * as rq from './queries.ts';
import type { ReturnFulfillmentLabelJson } from './tables.ts';

/**
 * A return's parcel through its provider, as Medusa's confirm-return-request makes its return
 * fulfillment: when a request with return shipping is confirmed, the option's provider is asked
 * for a return shipment (createReturnFulfillment: a label the shopper prints, a tracking number),
 * and its answer is kept on the return. The provider is asked last, with everything else of the
 * confirmation written: a refusal or a timeout rolls the confirmation back (502, nothing written).
 * The fulfilment id is the carrier's reference (and idempotency key) for the parcel.
 */
export async function shipReturnBack(
  tctx: TxCtx,
  order: OrderRow,
  ret: rq.ReturnRow,
  actions: cq.ActionRow[],
  providers: Providers,
): Promise<void> {
  const shipping = actions.find((a) => a.action === 'SHIPPING_ADD' && (a.details.direction ?? 'inbound') === 'inbound');
  const optionId = shipping?.details.shipping_option_id as string | undefined;
  if (!optionId) return;
  // An option deleted since it was chosen has no provider to ask: the shopper sends it back by hand.
  const option = await findShippingOption(tctx.tx, optionId);
  if (!option) return;
  const lines = new Map((await dq.listLinesOf(tctx.tx, [order.id])).map((l) => [l.id, l]));
  const items = (await rq.itemsOfReturns(tctx.tx, [ret.id])).map((i) => {
    const line = lines.get(i.item_id);
    return { line_item_id: i.item_id, title: line?.title ?? '', sku: line?.variant_sku ?? null, quantity: i.quantity };
  });
  const to = ret.location_id
    ? { id: ret.location_id, name: (await rq.locationName(tctx.tx, ret.location_id)) ?? ret.location_id }
    : await optionLocation(tctx.tx, option.id);
  const id = newId('ful');
  const made = await callFulfillmentProvider(providers, option.provider_id, 'createReturnFulfillment', {
    fulfillment_id: id,
    option_data: (option.data ?? {}) as JsonObject,
    method_data: {},
    order: {
      id: order.id,
      display_id: order.display_id ?? null,
      email: order.email ?? null,
      currency_code: order.currency_code,
    },
    items,
    shipping_address: (order.shipping_address ?? null) as JsonObject | null,
    from_location: null,
    to_location: to ?? null,
  } as unknown as JsonObject);
  const now = tctx.clock.now();
  await rq.insertReturnFulfillment(tctx.tx, {
    id,
    return_id: ret.id,
    order_id: order.id,
    provider_id: option.provider_id,
    shipping_option_id: option.id,
    location_id: to?.id ?? null,
    data: (made.data as Record<string, unknown> | undefined) ?? null,
    items,
    labels: labelsOf(made),
    delivered_at: null,
    canceled_at: null,
    created_at: now,
    updated_at: now,
  });
}

function labelsOf(made: JsonObject): ReturnFulfillmentLabelJson[] {
  return ((made.labels as unknown as Partial<ReturnFulfillmentLabelJson>[] | undefined) ?? []).map((l) => ({
    id: newId('fulla'),
    tracking_number: String(l.tracking_number ?? ''),
    tracking_url: String(l.tracking_url ?? ''),
    label_url: String(l.label_url ?? ''),
  }));
}

/** The return canceled: its live parcels are canceled at their carrier (a refusal keeps the return as it was). */
export async function cancelReturnParcels(tctx: TxCtx, ret: rq.ReturnRow, providers: Providers): Promise<void> {
  const now = tctx.clock.now();
  for (const f of await rq.fulfillmentsOfReturns(tctx.tx, [ret.id])) {
    if (f.canceled_at || f.delivered_at) continue;
    if (f.provider_id !== MANUAL_PROVIDER)
      await callFulfillmentProvider(providers, f.provider_id, 'cancelFulfillment', {
        fulfillment_id: f.id,
        data: (f.data ?? {}) as JsonObject,
      });
    await rq.updateReturnFulfillment(tctx.tx, f.id, { canceled_at: now, updated_at: now });
  }
}

/** The return received whole: its parcel arrived. */
export async function parcelsArrived(tctx: TxCtx, ret: rq.ReturnRow): Promise<void> {
  const now = tctx.clock.now();
  for (const f of await rq.fulfillmentsOfReturns(tctx.tx, [ret.id]))
    if (!f.canceled_at && !f.delivered_at)
      await rq.updateReturnFulfillment(tctx.tx, f.id, { delivered_at: now, updated_at: now });
}
