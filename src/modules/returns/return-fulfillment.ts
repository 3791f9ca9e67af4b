import type { Ctx, TxCtx } from '../../platform/context.ts';
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
import type * as cq from '../orders/changes/queries.ts';
import * as dq from '../orders/desk-queries.ts';
import type { OrderRow } from '../orders/queries.ts';
import { findShippingOption, optionLocation } from '../shipping-options/service.ts';
import { claimLabelAttempt, dropLabelAttempt, markLabelUnanswered, sweepLabelAttempts } from './label-attempts.ts';
import * as rq from './queries.ts';
import type { ReturnFulfillmentLabelJson } from './tables.ts';

/**
 * A plugin's carrier is never asked while the order is locked (every other write to the order
 * would wait on it, holding a pooled connection), as fulfil-through-carrier.ts: a locked step that
 * needs the carrier (a return label, a parcel canceled) stops before its transaction commits, the
 * carrier is asked with no transaction open, and the step runs again with the answer
 * (`withReturnCarrier`). A label made for a step that then refuses, or asks for another (the
 * return changed meanwhile), is canceled at the carrier. A label is recorded as an attempt
 * (label-attempts.ts) before its carrier is asked, with no transaction open, so that it outlives
 * the step: a carrier that did not answer in time is asked again with the same id when the same
 * label is asked for again, and answers with the label it made. The manual provider answers in
 * process, under the lock.
 */
export class ReturnCarrier {
  /** Labels made, by the question the carrier was asked (its fulfilment id aside). */
  readonly labels = new Map<string, { id: string; providerId: string; made: JsonObject; used: boolean }>();
  /** Parcels the carrier canceled. */
  readonly canceled = new Set<string>();
  /** Orders whose label attempts are swept once the step committed (a request confirmed, changed or dropped). */
  readonly sweeps = new Set<string>();
  /** Returns whose request the step changed (items, option, location): their attempts are obsolete. */
  readonly changed = new Set<string>();
  constructor(
    readonly ctx: Ctx,
    readonly providers: Providers,
  ) {}
  /** The step ends a request of this order: its label attempts no retry can take over are swept after it. */
  sweepAfter(orderId: string) {
    this.sweeps.add(orderId);
  }
  /** The step changed what the return's label would be asked for: a label asked before is no retry's. */
  requestChanged(orderId: string, returnId: string | null) {
    this.sweeps.add(orderId);
    if (returnId) this.changed.add(returnId);
  }
}

class CarrierFirst extends Error {
  constructor(readonly ask: (carrier: ReturnCarrier) => Promise<void>) {
    super('the carrier is asked before the order is locked');
  }
}

const CARRIER_ASKS = 3;

/** Runs a locked return step (`run`), asking the carrier with no lock held each time it stopped for it. */
export async function withReturnCarrier<T>(
  ctx: Ctx,
  providers: Providers,
  run: (carrier: ReturnCarrier) => Promise<T>,
): Promise<T> {
  const carrier = new ReturnCarrier(ctx, providers);
  const unused = () => [...carrier.labels.values()].filter((l) => !l.used);
  try {
    for (let asked = 0; ; asked++) {
      for (const l of carrier.labels.values()) l.used = false;
      carrier.sweeps.clear();
      carrier.changed.clear();
      try {
        const result = await run(carrier);
        await cancelLabels(ctx, carrier, unused());
        await sweepAfterStep(carrier);
        return result;
      } catch (err) {
        if (!(err instanceof CarrierFirst)) throw err;
        if (asked >= CARRIER_ASKS) throw errors.conflict('return_parcel_changing', { tries: CARRIER_ASKS });
        await err.ask(carrier);
      }
    }
  } catch (err) {
    // Refused (or stopped for a price first): no label of this attempt is kept at the carrier.
    await cancelLabels(ctx, carrier, [...carrier.labels.values()]);
    throw err;
  }
}

/** The step committed: the label attempts it left obsolete are canceled at their carrier (label-attempts.ts). */
async function sweepAfterStep(carrier: ReturnCarrier) {
  for (const orderId of carrier.sweeps)
    try {
      await sweepLabelAttempts(carrier.ctx, carrier.providers, orderId, undefined, carrier.changed);
    } catch (err) {
      // The step's answer stands: the next step ending a request of the order sweeps again.
      carrier.ctx.log.warn({ err, order_id: orderId }, 'return label attempts not swept');
    }
}

type Label = ReturnCarrier['labels'] extends Map<string, infer L> ? L : never;

/** Labels no step kept: canceled at their carrier (a failure is logged, the step's answer stands). */
async function cancelLabels(ctx: Ctx, carrier: ReturnCarrier, labels: Label[]) {
  for (const l of labels) {
    try {
      await callFulfillmentProvider(carrier.providers, l.providerId, 'cancelFulfillment', {
        fulfillment_id: l.id,
        data: (l.made.data ?? {}) as JsonObject,
      });
    } catch (err) {
      ctx.log.warn({ err, fulfillment_id: l.id }, 'carrier label of a refused return step not canceled');
    }
    await dropLabelAttempt(ctx.db, l.id);
  }
  for (const [question, l] of carrier.labels) if (labels.includes(l)) carrier.labels.delete(question);
}

/**
 * A return's parcel through its provider, as Medusa's confirm-return-request makes its return
 * fulfillment: when a request with return shipping is confirmed, the option's provider is asked
 * for a return shipment (createReturnFulfillment: a label the shopper prints, a tracking number),
 * and its answer is kept on the return. A plugin's carrier is asked with the order unlocked
 * (`withReturnCarrier`): a refusal writes nothing (502); no answer in time (504) keeps only the
 * attempt, whose id the request sent again reuses. The fulfilment id is the carrier's reference
 * (and idempotency key) for the parcel.
 */
export async function shipReturnBack(
  tctx: TxCtx,
  order: OrderRow,
  ret: rq.ReturnRow,
  actions: cq.ActionRow[],
  carrier: ReturnCarrier,
): Promise<void> {
  // Confirmed, the request takes no label attempt made for another version of it.
  carrier.sweepAfter(order.id);
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
  const request = {
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
  };
  let id: string;
  let made: JsonObject;
  if (option.provider_id === MANUAL_PROVIDER) {
    id = newId('ful');
    made = await callFulfillmentProvider(carrier.providers, MANUAL_PROVIDER, 'createReturnFulfillment', {
      fulfillment_id: id,
      ...request,
    });
  } else {
    const question = `${option.provider_id} ${JSON.stringify(request)}`;
    const label = carrier.labels.get(question);
    if (!label)
      throw new CarrierFirst(async (c) => {
        // Recorded before the carrier is asked: a retry after no answer asks with the same id.
        const now = c.ctx.clock.now();
        const at = { order_id: order.id, return_id: ret.id, provider_id: option.provider_id, question };
        const id = await claimLabelAttempt(c.ctx.db, at, now, carrierCallLostAfterMs(c.providers));
        // A label asked for another version of this request is one no retry takes over any more.
        await sweepLabelAttempts(c.ctx, c.providers, order.id, { id, return_id: ret.id });
        let answer: JsonObject;
        try {
          answer = await callFulfillmentProvider(c.providers, option.provider_id, 'createReturnFulfillment', {
            fulfillment_id: id,
            ...request,
          });
        } catch (err) {
          if (isProviderTimeout(err)) {
            await markLabelUnanswered(c.ctx.db, id, c.ctx.clock.now());
            throw appError('fulfillment_provider_timeout', { id: option.provider_id });
          }
          await dropLabelAttempt(c.ctx.db, id);
          throw err;
        }
        c.labels.set(question, { id, providerId: option.provider_id, made: answer, used: false });
      });
    label.used = true;
    ({ id, made } = label);
    await dropLabelAttempt(tctx.tx, id);
  }
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
  return carrierLabels(made, () => newId('fulla'));
}

/**
 * The return canceled: its live parcels are canceled at their carrier, asked with the order
 * unlocked (`withReturnCarrier`, after the step's own checks passed); a refusal keeps the return
 * as it was.
 */
export async function cancelReturnParcels(tctx: TxCtx, ret: rq.ReturnRow, carrier: ReturnCarrier): Promise<void> {
  carrier.sweepAfter(ret.order_id);
  const now = tctx.clock.now();
  for (const f of await rq.fulfillmentsOfReturns(tctx.tx, [ret.id])) {
    if (f.canceled_at || f.delivered_at) continue;
    const request = { fulfillment_id: f.id, data: (f.data ?? {}) as JsonObject };
    if (f.provider_id === MANUAL_PROVIDER)
      await callFulfillmentProvider(carrier.providers, f.provider_id, 'cancelFulfillment', request);
    else if (!carrier.canceled.has(f.id))
      throw new CarrierFirst(async (c) => {
        await callFulfillmentProvider(c.providers, f.provider_id, 'cancelFulfillment', request);
        c.canceled.add(f.id);
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
