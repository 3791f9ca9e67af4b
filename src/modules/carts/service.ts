import type { SQL, SQLWrapper } from 'drizzle-orm';
import type { Ctx, TxCtx } from '../../platform/context.ts';
import { errors, type AppError } from '../../platform/http/errors.ts';
import { newId } from '../../platform/ids.ts';
import type { StoreCustomer } from '../customers/customer-auth.ts';
import { findRegionOrDefault, type Region } from '../regions/service.ts';
import { assertInRegion, fitsRegion, toAddress } from './addresses.ts';
import { pricedLines, unitPrices } from './line-prices.ts';
import { mergeItems, sellableVariants } from './pricing.ts';
import * as q from './queries.ts';
import type { CreateCartInput, UpdateCartInput } from './schema.ts';

/**
 * The rules of a cart, run inside the caller's transaction: who may see it, how it is created,
 * locked for a change, touched, completed. Checkout runs them (cart-flow.ts) and reads the cart
 * back with its payment collection.
 */

/**
 * Who asks: the signed-in customer (or null) and the publishable key's sales channels (null: the
 * shop itself, e.g. a processor's webhook completing a paid cart, bound to no key).
 * A cart bound to a customer exists only for that customer, and a cart of a sales channel only
 * for keys of that channel (as its products are): anyone else gets the same 404 as for a cart
 * that does not exist, so ids of other shoppers' carts leak nothing.
 */
export interface CartAccess {
  customerId: string | null;
  channelIds: string[] | null;
}

export type { LockedCart } from './queries.ts';

export const cartNotFound = (id: string) => errors.notFound('cart_not_found', { id });
export const cartCompleted = (id: string) => errors.invalid('cart_completed', { id });

export function assertCartVisible(
  cart: { id: string; customer_id: string | null; sales_channel_id: string | null },
  access: CartAccess,
  notFound?: AppError,
): void {
  const otherCustomer = cart.customer_id && cart.customer_id !== access.customerId;
  const otherChannel =
    access.channelIds && cart.sales_channel_id !== null && !access.channelIds.includes(cart.sales_channel_id);
  if (otherCustomer || otherChannel) throw notFound ?? cartNotFound(cart.id);
}

/** Medusa's rule: a key with one channel fills it in; otherwise it must be given and lie within the key. */
export function salesChannelFor(requested: string | undefined, channelIds: string[]): string {
  if (!channelIds.length) throw errors.notAllowed('publishable_key_without_channel');
  if (requested === undefined) {
    if (channelIds.length === 1) return channelIds[0];
    throw errors.invalid('cart_sales_channel_invalid'); // the key has several channels: sales_channel_id is required
  }
  if (!channelIds.includes(requested)) throw errors.invalid('cart_sales_channel_invalid'); // a channel outside the key
  return requested;
}

async function regionForCart(ctx: Ctx, regionId: string | undefined): Promise<Region> {
  const region = await findRegionOrDefault(ctx, regionId);
  if (region) return region;
  throw regionId === undefined
    ? errors.invalid('cart_region_required')
    : errors.invalid('region_reference_missing', { id: regionId });
}

/** A new cart as written: everything its view shows but the payment collection (it has none yet). */
export type NewCart = q.CartRow & {
  customer_email: string | null;
  lines: q.LineRow[];
  methods: q.ShippingMethodRow[];
  region: Region;
};

/**
 * A new cart and its first lines (`salesChannelId` from salesChannelFor), checked, with the
 * writes that create it: the caller runs them in one statement with its event. Reads only
 * (region, variants), so no transaction is needed around it.
 */
export async function newCart(
  ctx: Ctx,
  input: CreateCartInput,
  customer: StoreCustomer | null,
  salesChannelId: string,
): Promise<{ cart: NewCart; writes: SQL[] }> {
  const region = await regionForCart(ctx, input.region_id);
  if (input.currency_code && input.currency_code.toLowerCase() !== region.currency_code) {
    throw errors.invalid('cart_currency_mismatch', {
      currency: input.currency_code.toLowerCase(),
      region: region.name,
      region_currency: region.currency_code,
    });
  }
  // A region of one country taxes a new cart at once: that country is its shipping address until one is given.
  const onlyCountry = region.countries.length === 1 ? region.countries[0].iso_2 : null;
  const shipping = input.shipping_address
    ? toAddress(input.shipping_address)
    : onlyCountry
      ? toAddress({ country_code: onlyCountry })
      : null;
  const billing = input.billing_address ? toAddress(input.billing_address) : null;
  assertInRegion(shipping, region);
  assertInRegion(billing, region);
  const now = ctx.clock.now();
  const row: q.CartRow = {
    id: newId('cart'),
    region_id: region.id,
    sales_channel_id: salesChannelId,
    currency_code: region.currency_code,
    email: input.email?.toLowerCase() ?? customer?.email ?? null,
    customer_id: customer?.id ?? null,
    shipping_address: shipping,
    billing_address: billing,
    locale: input.locale ?? null,
    metadata: input.metadata ?? null,
    completed_at: null,
    abandoned_at: null,
    last_activity_at: now,
    order_id: null,
    tax_requested_at: null,
    created_at: now,
    updated_at: now,
  };
  const items = input.items ?? [];
  const variants = items.length
    ? await sellableVariants(
        ctx,
        items.map((i) => i.variant_id),
        row,
      )
    : new Map();
  // Merged first: two items of one variant make one line, priced for their summed quantity.
  const lines = await pricedLines(ctx, row, mergeItems(row.id, [], items, variants, now).inserts as q.LineRow[]);
  // A new cart: everything its view shows is at hand, nothing needs reading back.
  const cart = { ...row, customer_email: customer?.email ?? null, lines, methods: [], region };
  return { cart, writes: q.newCartWrites(row, lines) };
}

/** What a change writes on the cart row itself (lines and methods it writes directly). */
export type CartChange = q.CartPatch;

/**
 * Locks an open cart for a change: a second change of the same cart waits here. Refuses a cart
 * this shopper may not see (`notFound`, default a cart 404) and a completed one.
 */
export async function lockOpenCart(
  tctx: TxCtx,
  id: string,
  access: CartAccess,
  notFound?: AppError,
): Promise<q.LockedCart> {
  const cart = await q.lockCart(tctx.tx, id);
  if (!cart) throw notFound ?? cartNotFound(id);
  assertCartVisible(cart, access, notFound);
  if (cart.completed_at) throw cartCompleted(id);
  return cart;
}

/**
 * The UPDATE … RETURNING that ends every change: the patch, with `updated_at` and
 * `last_activity_at` moved. Not run here: checkout runs it inside the statement that reads the
 * whole cart back (one round trip).
 */
export function touchCart(tctx: TxCtx, id: string, patch: CartChange): SQLWrapper {
  const now = tctx.clock.now();
  return q.cartUpdateReturning(tctx.tx, id, { ...patch, updated_at: now, last_activity_at: now });
}

/** `POST /store/carts/{id}`: email, region, sales channel, addresses, metadata. */
export async function changeCartFields(
  tctx: TxCtx,
  cart: q.LockedCart,
  input: UpdateCartInput,
  access: CartAccess,
): Promise<CartChange> {
  const change: CartChange = {};
  const regionChanged = input.region_id !== undefined && input.region_id !== cart.region_id;
  const region = await regionForCart(tctx, regionChanged ? input.region_id : cart.region_id);
  const channel =
    input.sales_channel_id === undefined
      ? cart.sales_channel_id
      : salesChannelFor(input.sales_channel_id, access.channelIds ?? []);
  if (regionChanged || channel !== cart.sales_channel_id) {
    Object.assign(change, { region_id: region.id, currency_code: region.currency_code, sales_channel_id: channel });
    await repriceLines(tctx, cart, {
      region_id: region.id,
      currency_code: region.currency_code,
      sales_channel_id: channel,
    });
  }
  if (regionChanged) await q.deleteShippingMethods(tctx.tx, cart.id); // options belong to a region
  if (input.email !== undefined) change.email = input.email?.toLowerCase() ?? null;
  if (input.metadata !== undefined) change.metadata = input.metadata;
  if (input.locale !== undefined) change.locale = input.locale;
  // A given address must fit the region; a kept one that no longer fits after a region change is dropped.
  for (const key of ['shipping_address', 'billing_address'] as const) {
    const given = input[key];
    if (given !== undefined) {
      change[key] = given ? toAddress(given) : null;
      assertInRegion(change[key], region);
    } else if (regionChanged && !fitsRegion(cart[key], region)) change[key] = null;
  }
  return change;
}

/**
 * New region, currency or channel: every line is re-validated and priced again as when it was
 * added (the region's price lists and the line's quantity tier for the cart's customer).
 */
async function repriceLines(
  tctx: TxCtx,
  cart: q.LockedCart,
  target: { region_id: string; currency_code: string; sales_channel_id: string | null },
) {
  const variants = await sellableVariants(
    tctx,
    cart.lines.map((l) => l.variant_id),
    target,
  );
  const prices = await unitPrices(tctx, { ...target, customer_id: cart.customer_id }, cart.lines);
  const now = tctx.clock.now();
  for (const [i, l] of cart.lines.entries()) {
    const unit_price = prices[i] ?? variants.get(l.variant_id)!.price!;
    await q.updateLine(tctx.tx, cart.id, l.id, { unit_price, updated_at: now });
  }
}

/** Checkout placed the cart's order: the write that completes the cart and names the order, for checkout's statement. */
export function cartCompletedWrite(ctx: Ctx, id: string, orderId: string): SQL {
  return q.cartCompletion(id, orderId, ctx.clock.now());
}

/** Marks up to `limit` carts idle since `idleSince` abandoned at `now`; answers their ids (each once, whatever runs at the same time). */
export function markIdleCartsAbandoned(tctx: TxCtx, idleSince: Date, now: Date, limit: number): Promise<string[]> {
  return q.markIdleCartsAbandoned(tctx.tx, idleSince, now, limit);
}
