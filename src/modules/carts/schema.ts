import { Type, type Static } from 'typebox';
import { Money } from '../../platform/money/schema.ts';
import { Metadata, Nullable, ShopperJsonObject, ShopperMetadata, Timestamp } from '../../platform/http/schema-types.ts';

const Id = Type.String({ minLength: 1, maxLength: 200 });
const Quantity = Type.Integer({ minimum: 1, maximum: 1_000_000 });
const AddressText = Nullable(Type.String({ maxLength: 1000 }));
const JsonObject = Type.Record(Type.String(), Type.Unknown());

/**
 * Distinct lines a cart may hold (a create takes at most as many items). Every change of a cart
 * writes the whole cart into its `cart.updated` event, so the lines bound what each change costs.
 */
export const MAX_CART_LINES = 100;

// ---- request bodies ----

/** Medusa's address payload; `id` is accepted (the SDK echoes it back) and ignored. */
export const AddressInput = Type.Object(
  {
    id: Type.Optional(Id),
    first_name: Type.Optional(AddressText),
    last_name: Type.Optional(AddressText),
    company: Type.Optional(AddressText),
    address_1: Type.Optional(AddressText),
    address_2: Type.Optional(AddressText),
    city: Type.Optional(AddressText),
    country_code: Type.Optional(Nullable(Type.String({ maxLength: 2, description: 'ISO 3166-1 alpha-2, any case' }))),
    province: Type.Optional(AddressText),
    postal_code: Type.Optional(AddressText),
    phone: Type.Optional(AddressText),
    metadata: Type.Optional(ShopperMetadata),
  },
  { additionalProperties: false },
);

export const LineItemInput = Type.Object(
  { variant_id: Id, quantity: Quantity, metadata: Type.Optional(ShopperMetadata) },
  { additionalProperties: false },
);

const cartFields = {
  region_id: Type.Optional(Id),
  email: Type.Optional(Nullable(Type.String({ format: 'email', maxLength: 320 }))),
  sales_channel_id: Type.Optional(Id),
  shipping_address: Type.Optional(Nullable(AddressInput)),
  billing_address: Type.Optional(Nullable(AddressInput)),
  locale: Type.Optional(
    Nullable(
      Type.String({ maxLength: 35, pattern: '^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$', description: 'BCP 47, e.g. fr-FR' }),
    ),
  ),
  metadata: Type.Optional(ShopperMetadata),
};

// Medusa's `promo_codes`: applied with the cart on create, replacing those applied on update.
const PromoCodes = (description: string) =>
  Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 20, description }));

export const CreateCartBody = Type.Object(
  {
    ...cartFields,
    promo_codes: PromoCodes(
      'applied with the cart, in the same statement: a code that cannot discount it is a 400 and no cart is made',
    ),
    currency_code: Type.Optional(
      Type.String({ pattern: '^[a-zA-Z]{3}$', description: "must be the region's currency" }),
    ),
    items: Type.Optional(Type.Array(LineItemInput, { maxItems: MAX_CART_LINES })),
  },
  { additionalProperties: false },
);

/** The customer is not settable here: `POST /store/carts/{id}/customer` assigns the signed-in one. */
export const UpdateCartBody = Type.Object(
  {
    ...cartFields,
    promo_codes: PromoCodes('replaces the codes applied (Medusa storefront promo box); [] removes them all'),
  },
  { additionalProperties: false },
);

export const UpdateLineItemBody = Type.Object(
  {
    quantity: Type.Integer({ minimum: 0, maximum: 1_000_000, description: '0 removes the line' }),
    metadata: Type.Optional(ShopperMetadata),
  },
  { additionalProperties: false },
);

export const AddShippingMethodBody = Type.Object(
  { option_id: Id, data: Type.Optional(ShopperJsonObject) },
  { additionalProperties: false },
);

export const LineItemParams = Type.Object({ id: Id, line_id: Id });

export type CreateCartInput = Static<typeof CreateCartBody>;
export type UpdateCartInput = Static<typeof UpdateCartBody>;
export type AddressInputT = Static<typeof AddressInput>;
export type LineItemInputT = Static<typeof LineItemInput>;

// ---- responses ----

export const Address = Type.Object({
  id: Type.String(),
  first_name: Nullable(Type.String()),
  last_name: Nullable(Type.String()),
  company: Nullable(Type.String()),
  address_1: Nullable(Type.String()),
  address_2: Nullable(Type.String()),
  city: Nullable(Type.String()),
  country_code: Nullable(Type.String()),
  province: Nullable(Type.String()),
  postal_code: Nullable(Type.String()),
  phone: Nullable(Type.String()),
  metadata: Metadata,
});

/** Per-line and per-method totals as Medusa computes them: exact decimals, never rounded (totals/). */
export const lineTotals = {
  subtotal: Money({ description: 'without tax and discounts' }),
  total: Money(),
  original_total: Money({ description: 'before discounts, with tax' }),
  original_subtotal: Money({ description: 'before discounts, without tax' }),
  discount_total: Money({ description: 'with the tax of the discount' }),
  discount_subtotal: Money({ description: 'without tax' }),
  discount_tax_total: Money(),
  tax_total: Money(),
  original_tax_total: Money(),
};

/** A tax line of a line item or shipping method (the rate in percent). */
export const TaxLine = Type.Object({
  id: Type.String(),
  rate_id: Nullable(Type.String()),
  code: Type.String(),
  name: Type.String(),
  rate: Type.Number(),
  provider_id: Type.String(),
  description: Nullable(Type.String()),
  subtotal: Money({ description: 'the tax on the amount before discounts' }),
  total: Money({ description: 'the tax on the discounted amount' }),
});

/** A promotion's discount on a line item or shipping method; `amount` is without tax. */
export const Adjustment = Type.Object({
  id: Type.String(),
  code: Type.String(),
  promotion_id: Type.String(),
  amount: Money(),
  description: Nullable(Type.String()),
  is_tax_inclusive: Type.Boolean({ description: "the amount includes tax (its promotion's flag)" }),
  subtotal: Money(),
  total: Money(),
});

/** The product and variant as copied onto a line (cart, then order): what Medusa's `*items.product` / `*items.variant` show. */
export const LineProduct = Type.Object({
  id: Type.String(),
  title: Type.String(),
  handle: Nullable(Type.String()),
  thumbnail: Nullable(Type.String()),
});
export const LineVariant = Type.Object({
  id: Type.String(),
  title: Type.String(),
  sku: Nullable(Type.String()),
  product_id: Type.String(),
});

// The parts a cart's line or shipping method and an order's show alike: the order keeps the cart's copy.
export const lineHeading = {
  title: Type.String(),
  subtitle: Nullable(Type.String()),
  thumbnail: Nullable(Type.String()),
};
export const lineProductNames = {
  product_title: Type.String(),
  product_handle: Nullable(Type.String()),
  variant_title: Type.String(),
  variant_sku: Nullable(Type.String()),
};
export const lineFlags = {
  requires_shipping: Type.Boolean(),
  is_discountable: Type.Boolean(),
  is_tax_inclusive: Type.Boolean(),
};
/** How a line or a shipping method is taxed and discounted. */
export const chargeLines = { tax_lines: Type.Array(TaxLine), adjustments: Type.Array(Adjustment) };
export const rowTimestamps = { created_at: Timestamp, updated_at: Timestamp };

export const LineItem = Type.Object({
  id: Type.String(),
  cart_id: Type.String(),
  ...lineHeading,
  quantity: Type.Integer(),
  unit_price: Money(),
  variant_id: Type.String(),
  product_id: Type.String(),
  ...lineProductNames,
  ...lineFlags,
  /** As copied when the line was added (what Medusa's `*items.product` / `*items.variant` show). */
  product: LineProduct,
  variant: LineVariant,
  ...chargeLines,
  metadata: Metadata,
  ...lineTotals,
  ...rowTimestamps,
});

export const ShippingMethod = Type.Object({
  id: Type.String(),
  cart_id: Type.String(),
  shipping_option_id: Type.String(),
  name: Type.String(),
  amount: Money(),
  is_tax_inclusive: Type.Boolean(),
  data: Nullable(JsonObject),
  ...chargeLines,
  ...lineTotals,
  ...rowTimestamps,
});

export const cartTotals = {
  item_subtotal: Money(),
  item_total: Money(),
  item_tax_total: Money(),
  shipping_subtotal: Money(),
  shipping_total: Money(),
  shipping_tax_total: Money(),
  subtotal: Money({ description: 'items + shipping, before taxes and discounts' }),
  tax_total: Money(),
  discount_total: Money(),
  discount_tax_total: Money(),
  original_total: Money(),
  original_tax_total: Money(),
  original_item_total: Money(),
  original_item_subtotal: Money(),
  original_item_tax_total: Money(),
  original_shipping_total: Money(),
  original_shipping_subtotal: Money(),
  original_shipping_tax_total: Money(),
  original_subtotal: Money(),
  item_discount_total: Money(),
  shipping_discount_total: Money(),
  discount_subtotal: Money(),
  total: Money(),
};

export type LineItemView = Static<typeof LineItem>;
export type ShippingMethodView = Static<typeof ShippingMethod>;
export type AddressView = Static<typeof Address>;
