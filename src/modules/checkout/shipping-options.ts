import type { Ctx } from '../../platform/context.ts';
import { errors } from '../../platform/http/errors.ts';
import type { JsonObject, Providers } from '../../platform/providers.ts';
import type { CartAccess } from '../carts/service.ts';
import { chooseShippingMethod } from '../carts/shipping-methods.ts';
import { callFulfillmentProvider, MANUAL_PROVIDER } from '../fulfillment/providers.ts';
import { findVisibleCart, mutateCart } from './cart-flow.ts';
import { findShippingOption } from '../shipping-options/service.ts';
import { findCart, type FullCart } from './cart-read.ts';
import type { CartView } from './cart-schema.ts';
import { cartViewOf } from './cart-view.ts';
import {
  calculatedPrice,
  offeredOptions,
  priceRequest,
  providerPrice,
  storeView,
  type OfferedOption,
} from './offered-options.ts';

/** `GET /store/shipping-options?cart_id=`. */
export async function listCartShippingOptions(ctx: Ctx, cartId: string, access: CartAccess, isReturn = false) {
  const cart = await findVisibleCart(ctx, cartId, access);
  const view = await cartViewOf(ctx, cart);
  const offered = await offeredOptions(ctx.db, cart, view.item_total, isReturn);
  return offered.map((o) => storeView(cart, o));
}

/**
 * `POST /store/shipping-options/{id}/calculate`: the option's price for the cart, in Medusa's
 * `calculated_price` shape (a flat option: its price for the cart; a calculated one: its
 * provider's quote for `data`).
 */
export async function calculateCartShippingOption(
  ctx: Ctx,
  optionId: string,
  cartId: string,
  access: CartAccess,
  providers: Providers,
  data: Record<string, unknown> = {},
) {
  const cart = await findVisibleCart(ctx, cartId, access);
  const view = await cartViewOf(ctx, cart);
  const offered = (await offeredOptions(ctx.db, cart, view.item_total)).find((o) => o.row.id === optionId);
  if (!offered) {
    if (!(await findShippingOption(ctx.db, optionId)))
      throw errors.notFound('shipping_option_not_found', { id: optionId });
    throw errors.invalid('shipping_option_not_for_cart', { id: optionId });
  }
  const amount = offered.amount ?? (await providerPrice(providers, { ...cart, items: view.items }, offered.row, data));
  return { ...storeView(cart, offered), amount, calculated_price: calculatedPrice(amount, cart.currency_code) };
}

/** What a method's provider answered for the cart as it was read: its data, and a calculated option's price. */
interface Quote {
  /** The facts the provider was asked about; under the lock the cart must still show them. */
  facts: string;
  data: Record<string, unknown> | null;
  amount: number | null;
}

/** The facts a quote depends on: the option's provider and data, and for a calculated one the cart's items and address. */
function quoteFacts(cart: FullCart, items: unknown[], row: OfferedOption['row'], data: Record<string, unknown>) {
  const priced = row.price_type === 'calculated' ? priceRequest({ ...cart, items }, row, data) : null;
  return JSON.stringify([row.provider_id, row.data ?? null, data, priced]);
}

/** Asks the option's provider, with no lock held: it validates the shopper's data and, if calculated, prices the cart. */
async function quote(
  read: QuoteFirst,
  data: Record<string, unknown> | undefined,
  providers: Providers,
): Promise<Quote> {
  const { cart, items, offered } = read;
  const { row } = offered;
  const validated = await callFulfillmentProvider(providers, row.provider_id, 'validateFulfillmentData', {
    option_data: (row.data ?? {}) as JsonObject,
    data: (data ?? {}) as JsonObject,
  });
  return {
    facts: quoteFacts(cart, items, row, data ?? {}),
    data: (validated.data as Record<string, unknown>) ?? data ?? row.data ?? null,
    amount: offered.amount ?? (await providerPrice(providers, { ...cart, items }, row, data ?? {})),
  };
}

/** Thrown out of the cart's transaction (releasing its lock) when the provider must be asked first. */
class QuoteFirst extends Error {
  constructor(
    readonly cart: FullCart,
    readonly items: unknown[],
    readonly offered: OfferedOption,
  ) {
    super('quote first');
  }
}
const QUOTE_ATTEMPTS = 3;

/**
 * `POST /store/carts/{id}/shipping-methods`: an option the cart is offered now, at its price for
 * the cart (a calculated one: its provider's quote for `data`), as the method of its profile.
 *
 * A plugin's provider (a carrier's API, maybe slow) is never asked while the cart is locked, so
 * the cart's other requests go on meanwhile: the locked transaction that finds it must be asked
 * gives up, the provider is asked about the cart as that transaction read it, and the next locked
 * transaction writes the method only if the option is still offered and the cart still shows what
 * the provider was asked about (items, address, the option's data); else it asks again (three
 * times, then 409). The manual provider's flat options need no question and write at once.
 */
export async function addShippingMethod(
  ctx: Ctx,
  id: string,
  input: { option_id: string; data?: Record<string, unknown> },
  access: CartAccess,
  providers: Providers,
): Promise<CartView> {
  let answer: Quote | undefined;
  for (let asked = 0; ; asked++) {
    try {
      return await mutateCart(ctx, id, access, async (tctx) => {
        const full = (await findCart(tctx.tx, id)) as FullCart;
        const view = await cartViewOf(tctx, full);
        const offered = (await offeredOptions(tctx.tx, full, view.item_total)).find(
          (o) => o.row.id === input.option_id,
        );
        if (!offered) throw errors.invalid('shipping_options_invalid_for_cart');
        const { row } = offered;
        const byProvider = row.provider_id !== MANUAL_PROVIDER || offered.amount === null;
        if (byProvider && answer?.facts !== quoteFacts(full, view.items, row, input.data ?? {}))
          throw new QuoteFirst(full, view.items, offered);
        await chooseShippingMethod(tctx, id, {
          id: row.id,
          name: row.name,
          // A flat price is the one read under the lock (the item total may have moved it).
          amount: offered.amount ?? (answer?.amount as number),
          shipping_profile_id: row.shipping_profile_id,
          data: byProvider ? (answer?.data ?? null) : (input.data ?? row.data ?? null),
        });
      });
    } catch (err) {
      if (!(err instanceof QuoteFirst)) throw err;
      if (asked >= QUOTE_ATTEMPTS) throw errors.conflict('cart_changed_while_quoting', { id: input.option_id });
      answer = await quote(err, input.data, providers);
    }
  }
}
