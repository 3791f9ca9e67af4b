/**
 * Fulfilment providers: what a `fulfillment-provider` plugin implements so that the shop can
 * ship through a carrier (DHL, UPS, a courier's REST API). Shaped after Medusa's
 * AbstractFulfillmentProviderService, so a Medusa provider ports over method by method.
 *
 * Rules the shop keeps, whatever the provider does:
 * - Every argument and answer is plain JSON; every call has the shop's deadline
 *   (PROVIDER_TIMEOUT_MS). A method that throws refuses the operation: nothing is written and the
 *   admin (or shopper) sees a 502 with the thrown message.
 * - Amounts are integers in the currency's minor unit (495 = 4.95 EUR).
 * - `option_data` is the shipping option's `data` (e.g. which of your services it sells, from
 *   getFulfillmentOptions); `data` is what the shopper's method carries after validateFulfillmentData;
 *   a fulfilment's own `data` is what createFulfillment returned (e.g. your shipment id), handed
 *   back to cancelFulfillment.
 */

import type { JsonObject } from './json.ts';

export interface FulfillmentOptionsOutput {
  /** Each becomes a choice for a shipping option's `data` (`{ id, name?, is_return? }`). */
  options: JsonObject[];
}

export interface ValidateFulfillmentDataInput {
  option_data: JsonObject;
  /** What the storefront sent with `POST /store/carts/{id}/shipping-methods { data }`. */
  data: JsonObject;
}

export interface ShippingAddressJson {
  country_code?: string | null;
  province?: string | null;
  city?: string | null;
  postal_code?: string | null;
  address_1?: string | null;
}

export interface CalculatePriceInput {
  option_data: JsonObject;
  data: JsonObject;
  context: {
    /** The cart being quoted; for a return's shipping, the order's cart (or ''). */
    cart_id: string;
    /** Set when a return's shipping is quoted: the order, and `is_return: true`. */
    order_id?: string;
    is_return?: boolean;
    currency_code: string;
    shipping_address: ShippingAddressJson | null;
    /** The stock location the set of the option belongs to: where the parcel leaves from. */
    from_location: { id: string; name: string };
    items: JsonObject[];
  };
}

export interface CalculatePriceOutput {
  calculated_amount: number;
  is_calculated_price_tax_inclusive?: boolean;
}

export interface CreateFulfillmentInput {
  /**
   * The shop's fulfilment id (`ful_…`): pass it to the carrier as your idempotency key / reference.
   * The shop asks again with the same id when your answer did not arrive in time, so the carrier
   * must answer the first shipment rather than make a second label.
   */
  fulfillment_id: string;
  option_data: JsonObject;
  /** The order's shipping method data (what the shopper chose), if any. */
  method_data: JsonObject;
  order: { id: string; display_id: number | null; email: string | null; currency_code: string };
  items: { line_item_id: string; title: string; sku: string | null; quantity: number }[];
  /** The shopper's address: where the parcel goes to (createReturnFulfillment: where it is picked up). */
  shipping_address: ShippingAddressJson | null;
  /** The stock location the parcel leaves from (null in createReturnFulfillment). */
  from_location: { id: string; name: string } | null;
  /** createReturnFulfillment only: the stock location the return goes back to. */
  to_location?: { id: string; name: string } | null;
}

export interface CreateFulfillmentOutput {
  /** Stored on the fulfilment and handed back to cancelFulfillment. */
  data: JsonObject;
  /** Shown on the order: one per parcel. */
  labels: { tracking_number: string; tracking_url: string; label_url: string }[];
}

export interface CancelFulfillmentInput {
  /** The reference (and idempotency key) the fulfilment was created with. */
  fulfillment_id: string;
  /**
   * What createFulfillment (or createReturnFulfillment) returned; `{}` for a label whose answer
   * never reached the shop (a timeout), which you can only find by its `fulfillment_id`.
   */
  data: JsonObject;
}

/**
 * A fulfilment provider, registered from `register(ctx)` with `ctx.fulfillments.register(provider)`
 * (needs `permissions.providers: ["fulfillments"]`). It appears as `fp_<id>` in
 * `GET /admin/fulfillment-providers`; a shipping option with `provider_id: "fp_<id>"` is fulfilled by
 * it, and with `price_type: "calculated"` priced by it.
 *
 * @example
 * ```js
 * ctx.fulfillments.register({
 *   id: 'parcelo',
 *   name: 'Parcelo',
 *   async getFulfillmentOptions() { return { options: [{ id: 'parcel' }, { id: 'parcel-return', is_return: true }] }; },
 *   async calculatePrice({ context }) { return { calculated_amount: (await parcelo.quote(context.shipping_address)).amount }; },
 *   async createFulfillment({ fulfillment_id, shipping_address }) {
 *     const s = await parcelo.shipments.create({ reference: fulfillment_id, to: shipping_address });
 *     return { data: { shipment_id: s.id }, labels: [{ tracking_number: s.tracking, tracking_url: s.tracking_url, label_url: s.label_url }] };
 *   },
 *   async cancelFulfillment({ data }) { await parcelo.shipments.cancel(data.shipment_id); return {}; },
 * });
 * ```
 */
export interface FulfillmentProvider {
  /** Lower-case slug, unique in the shop: the provider id becomes `fp_<id>`. */
  id: string;
  /** Shown to the admin; defaults to the id. */
  name?: string;
  getFulfillmentOptions(): Promise<FulfillmentOptionsOutput> | FulfillmentOptionsOutput;
  /** Optional: checks and normalizes the shopper's data; by default it is kept as sent. */
  validateFulfillmentData?(input: ValidateFulfillmentDataInput): Promise<{ data: JsonObject }>;
  /** Optional: without it, options of this provider cannot be `calculated`. */
  calculatePrice?(input: CalculatePriceInput): Promise<CalculatePriceOutput>;
  createFulfillment(input: CreateFulfillmentInput): Promise<CreateFulfillmentOutput>;
  cancelFulfillment(input: CancelFulfillmentInput): Promise<JsonObject>;
  /** Optional: a return label for a return shipped with an option of this provider. */
  createReturnFulfillment?(input: CreateFulfillmentInput): Promise<CreateFulfillmentOutput>;
}
