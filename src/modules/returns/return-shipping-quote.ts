import type { TxCtx } from '../../platform/context.ts';
import { errors } from '../../platform/http/errors.ts';
import type { JsonObject, Providers } from '../../platform/providers.ts';
import { callFulfillmentProvider } from '../fulfillment/providers.ts';
import type * as cq from '../orders/changes/queries.ts';
import type { OrderRow } from '../orders/queries.ts';
import { findShippingOption, optionLocation } from '../shipping-options/service.ts';

/**
 * Return shipping by a `calculated` option is priced by its provider's calculatePrice, for the
 * items asked back, as Medusa prices a return's shipping method (and an exchange's or a claim's
 * outbound shipping, for the new items sent). The carrier is never asked while
 * the order is locked: a locked step that needs a price it was not given (for exactly these
 * items, address and option) stops before it writes, the carrier is asked with no transaction
 * open, and the step runs again with the answer (QUOTE_ASKS asks, then 409).
 */

/** Quotes given to a locked step, by the question the carrier was asked. */
export type ReturnQuotes = Map<string, number>;

const QUOTE_ASKS = 3;

export class ReturnQuoteFirst extends Error {
  constructor(
    readonly question: string,
    readonly providerId: string,
    readonly request: JsonObject,
  ) {
    super('return shipping is quoted before the order is locked');
  }
}

/**
 * The carrier's price of return shipping by `optionId` for the change's items asked back, when the
 * option is `calculated`; null for a flat one (its own price stands).
 */
export async function calculatedReturnPrice(
  tctx: TxCtx,
  order: OrderRow,
  change: cq.ChangeRow,
  actions: cq.ActionRow[],
  optionId: string,
  quotes: ReturnQuotes,
): Promise<number | null> {
  const items = actions
    .filter((a) => a.order_change_id === change.id && a.action === 'RETURN_ITEM')
    .map((a) => ({ line_item_id: a.reference_id, quantity: a.details.quantity ?? 0 }));
  return calculatedPrice(tctx, order, optionId, quotes, { is_return: true, items });
}

/**
 * The carrier's price of an after-sale leg by `optionId` (null for a flat option): the return leg
 * for the change's items asked back, the outbound leg (an exchange's, a claim's) for its new items.
 */
export async function calculatedLegPrice(
  tctx: TxCtx,
  order: OrderRow,
  change: cq.ChangeRow,
  actions: cq.ActionRow[],
  optionId: string,
  direction: 'inbound' | 'outbound',
  quotes: ReturnQuotes,
): Promise<number | null> {
  if (direction === 'inbound') return calculatedReturnPrice(tctx, order, change, actions, optionId, quotes);
  const items = actions
    .filter((a) => a.order_change_id === change.id && a.action === 'ITEM_ADD')
    .map((a) => ({
      // A new line's id is made each time its step runs (a question asked again would differ): none.
      line_item_id: null,
      variant_id: a.details.variant_id ?? null,
      quantity: a.details.quantity ?? 0,
    }));
  return calculatedPrice(tctx, order, optionId, quotes, { is_return: false, items });
}

/**
 * The carrier's price of shipping by `optionId` for these items (an after-sale leg: items asked
 * back, `is_return`, or new items sent out), when the option is `calculated`; null for a flat one.
 * A locked step stops for it when it was not quoted yet (ReturnQuoteFirst).
 */
export async function calculatedPrice(
  tctx: TxCtx,
  order: OrderRow,
  optionId: string,
  quotes: ReturnQuotes,
  leg: { is_return: boolean; items: { line_item_id: string | null; variant_id?: string | null; quantity: number }[] },
): Promise<number | null> {
  const option = await findShippingOption(tctx.tx, optionId);
  if (option?.price_type !== 'calculated') return null;
  const request = {
    option_data: (option.data ?? {}) as JsonObject,
    data: {},
    context: {
      // An after-sale leg has no cart: the order's (the shopper's address, the order's currency).
      cart_id: order.cart_id ?? '',
      order_id: order.id,
      is_return: leg.is_return,
      currency_code: order.currency_code,
      shipping_address: (order.shipping_address ?? null) as JsonObject | null,
      from_location: (await optionLocation(tctx.tx, option.id)) ?? null,
      items: leg.items,
    },
  };
  const question = `${option.provider_id} ${JSON.stringify(request)}`;
  const quoted = quotes.get(question);
  if (quoted === undefined) throw new ReturnQuoteFirst(question, option.provider_id, request);
  return quoted;
}

/** Runs a locked return step (`run`), asking the carrier with no lock held for each price it stopped at. */
export async function withReturnQuotes<T>(providers: Providers, run: (quotes: ReturnQuotes) => Promise<T>): Promise<T> {
  const quotes: ReturnQuotes = new Map();
  for (let asked = 0; ; asked++) {
    try {
      return await run(quotes);
    } catch (err) {
      if (!(err instanceof ReturnQuoteFirst)) throw err;
      if (asked >= QUOTE_ASKS) throw errors.conflict('return_shipping_quote_changing', { tries: QUOTE_ASKS });
      const answer = await callFulfillmentProvider(providers, err.providerId, 'calculatePrice', err.request);
      const amount = Number(answer.calculated_amount);
      if (!Number.isSafeInteger(amount) || amount < 0)
        throw errors.invalid('fulfillment_provider_cannot_calculate', { id: err.providerId });
      quotes.set(err.question, amount);
    }
  }
}
