import type { Executor } from '../../platform/db/database.ts';
import { errors } from '../../platform/http/errors.ts';
import type { JsonObject, Providers } from '../../platform/providers.ts';
import { callFulfillmentProvider } from '../fulfillment/providers.ts';
import { pricesOf, type PriceRow } from '../shipping-options/queries.ts';
import { priceForCart } from '../shipping-options/pricing.ts';
import { cartProfileIds, eligibleOptionRows, type EligibleRow } from '../shipping-options/store-queries.ts';
import type { FullCart } from './cart-read.ts';

/**
 * Which shipping options a cart may choose from, at what price: checkout's side of the
 * fulfilment model (shipping-options/store-queries.ts says which zones serve a cart).
 */

interface CartFacts {
  id: string;
  region_id: string;
  currency_code: string;
  sales_channel_id: string | null;
  shipping_address: FullCart['shipping_address'];
}

/** An option offered to a cart, priced for it (`amount` null: its provider calculates it). */
export interface OfferedOption {
  row: EligibleRow;
  amount: number | null;
}

export function storeView(cart: CartFacts, o: OfferedOption) {
  const { row } = o;
  return {
    id: row.id,
    name: row.name,
    region_id: row.region_id,
    price_type: row.price_type,
    amount: o.amount,
    currency_code: cart.currency_code,
    provider_id: row.provider_id,
    service_zone_id: row.service_zone_id,
    shipping_profile_id: row.shipping_profile_id,
    type: row.type
      ? { id: row.type_id ?? `sotype_${row.id}`, ...row.type, description: row.type.description ?? '' }
      : null,
    data: row.data ?? null,
    is_tax_inclusive: false,
    insufficient_inventory: false,
    ...(o.amount === null ? {} : { calculated_price: calculatedPrice(o.amount, cart.currency_code) }),
    service_zone: {
      id: row.service_zone_id as string,
      name: row.zone_name,
      fulfillment_set_id: row.set_id,
      fulfillment_set: {
        id: row.set_id,
        name: row.set_name,
        type: row.set_type,
        location: { id: row.location_id, name: row.location_name },
      },
    },
  };
}

export const calculatedPrice = (amount: number, currency: string) => ({
  calculated_amount: amount,
  original_amount: amount,
  currency_code: currency,
  is_calculated_price_tax_inclusive: false,
  is_original_price_tax_inclusive: false,
});

/**
 * The options a cart may choose now, each flat one at its price for the cart's item total (a
 * flat option without a price in the cart's currency or region is not offered).
 */
export async function offeredOptions(
  db: Executor,
  cart: CartFacts,
  itemTotal: number,
  isReturn = false,
): Promise<OfferedOption[]> {
  const rows = await eligibleOptionRows(db, {
    region_id: cart.region_id,
    sales_channel_id: cart.sales_channel_id,
    address: cart.shipping_address?.country_code ? cart.shipping_address : null,
    profile_ids: await cartProfileIds(db, cart.id),
    is_return: isReturn,
  });
  const prices = await pricesOf(
    db,
    rows.filter((r) => r.price_type === 'flat').map((r) => r.id),
  );
  const context = { currency_code: cart.currency_code, region_id: cart.region_id, item_total: Math.round(itemTotal) };
  return rows.flatMap((row): OfferedOption[] => {
    if (row.price_type === 'calculated') return [{ row, amount: null }];
    const price = priceForCart(
      prices.filter((p: PriceRow) => p.shipping_option_id === row.id),
      context,
    );
    return price ? [{ row, amount: price.amount }] : [];
  });
}

/** What a `calculated` option's provider is asked for a cart: its calculatePrice input. */
export function priceRequest(
  cart: CartFacts & { items?: unknown[] },
  row: EligibleRow,
  data: Record<string, unknown>,
): JsonObject {
  return {
    option_data: (row.data ?? {}) as JsonObject,
    data: data as JsonObject,
    context: {
      cart_id: cart.id,
      currency_code: cart.currency_code,
      shipping_address: (cart.shipping_address ?? null) as JsonObject | null,
      from_location: { id: row.location_id, name: row.location_name },
      items: (cart.items ?? []) as JsonObject[],
      // The cart's own JSON-shaped facts (it crosses to the plugin as JSON, Dates as text).
    },
  };
}

/** Asks the option's provider for its price for this cart (a `calculated` option). */
export async function providerPrice(
  providers: Providers,
  cart: CartFacts & { items?: unknown[] },
  row: EligibleRow,
  data: Record<string, unknown>,
): Promise<number> {
  const answer = await callFulfillmentProvider(
    providers,
    row.provider_id,
    'calculatePrice',
    priceRequest(cart, row, data),
  );
  const amount = Number(answer.calculated_amount);
  if (!Number.isSafeInteger(amount) || amount < 0)
    throw errors.invalid('fulfillment_provider_cannot_calculate', { id: row.provider_id });
  return amount;
}
