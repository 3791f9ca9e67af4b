import { Type, type Static } from 'typebox';
import { Money } from '../../platform/money/schema.ts';
import { listEnvelope, pageQuery } from '../../platform/http/pagination.ts';
import { Metadata, Nullable, Timestamp } from '../../platform/http/schema-types.ts';

const Id = Type.String({ minLength: 1, maxLength: 200 });
const JsonObject = Type.Record(Type.String(), Type.Unknown());
const Amount = Money({
  minimum: 0,
  maximum: Number.MAX_SAFE_INTEGER,
  description: "flat price in the region's currency",
});
const PriceType = Type.Union([Type.Literal('flat'), Type.Literal('calculated')]);

/** A condition on a price: the cart's `item_total` compared with `value` (minor units). */
export const PriceRuleInput = Type.Object(
  {
    attribute: Type.Literal('item_total'),
    operator: Type.Union([
      Type.Literal('gt'),
      Type.Literal('gte'),
      Type.Literal('lt'),
      Type.Literal('lte'),
      Type.Literal('eq'),
    ]),
    value: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
  },
  { additionalProperties: false },
);

/** Medusa's price input: in a currency or for a region, maybe with rules on the cart. */
export const PriceInput = Type.Object(
  {
    id: Type.Optional(Id),
    currency_code: Type.Optional(Type.String({ pattern: '^[A-Za-z]{3}$' })),
    region_id: Type.Optional(Id),
    amount: Money({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
    rules: Type.Optional(Type.Array(PriceRuleInput, { maxItems: 10 })),
  },
  { additionalProperties: false },
);

/** An option rule (Medusa's): `enabled_in_store` and `is_return`, values "true"/"false". */
export const OptionRuleInput = Type.Object(
  {
    id: Type.Optional(Id),
    attribute: Type.String({ minLength: 1, maxLength: 100 }),
    operator: Type.Union([Type.Literal('eq'), Type.Literal('ne'), Type.Literal('in'), Type.Literal('nin')]),
    value: Type.Union([
      Type.String({ maxLength: 255 }),
      Type.Array(Type.String({ maxLength: 255 }), { maxItems: 100 }),
    ]),
  },
  { additionalProperties: false },
);

const OptionTypeInput = Type.Object(
  {
    label: Type.String({ minLength: 1, maxLength: 255 }),
    description: Type.Optional(Type.String({ maxLength: 1000 })),
    code: Type.String({ minLength: 1, maxLength: 100 }),
  },
  { additionalProperties: false },
);

export const OptionPrice = Type.Object({
  id: Type.String(),
  currency_code: Type.String(),
  region_id: Nullable(Type.String()),
  amount: Money(),
  price_rules: Type.Array(Type.Object({ attribute: Type.String(), operator: Type.String(), value: Type.Unknown() })),
  rules_count: Type.Integer(),
});

export const OptionRule = Type.Object({
  id: Type.String(),
  attribute: Type.String(),
  operator: Type.String(),
  value: Type.Unknown(),
});

export const OptionType = Nullable(
  Type.Object({ id: Type.String(), label: Type.String(), description: Type.String(), code: Type.String() }),
);

const optionFields = {
  id: Type.String(),
  name: Type.String(),
  region_id: Nullable(Type.String({ description: "the spec's flat option of a region; null for a zone's option" })),
  price_type: PriceType,
  amount: Nullable(Money({ description: "the spec's flat amount in the region's currency" })),
  currency_code: Nullable(Type.String({ description: "the region's (what amount is in)" })),
  provider_id: Type.String(),
  service_zone_id: Nullable(Type.String()),
  shipping_profile_id: Type.String(),
  type: OptionType,
  data: Nullable(JsonObject),
};

export const ShippingOption = Type.Object({
  ...optionFields,
  prices: Type.Array(OptionPrice),
  rules: Type.Array(OptionRule),
  metadata: Metadata,
  created_at: Timestamp,
  updated_at: Timestamp,
});

const CalculatedPrice = Type.Object({
  calculated_amount: Money(),
  original_amount: Money(),
  currency_code: Type.String(),
  is_calculated_price_tax_inclusive: Type.Boolean(),
  is_original_price_tax_inclusive: Type.Boolean(),
});

/**
 * What a storefront sees (Medusa's store shape: no taxes, inventory never short). `amount` is
 * the price for the cart (a conditional price applied); null for a `calculated` option, which
 * the storefront prices with `POST /store/shipping-options/{id}/calculate`.
 */
export const StoreShippingOption = Type.Object({
  ...optionFields,
  currency_code: Type.String({ description: "the cart's" }),
  is_tax_inclusive: Type.Boolean(),
  insufficient_inventory: Type.Boolean(),
  calculated_price: Type.Optional(CalculatedPrice),
  service_zone: Type.Optional(
    Type.Object({
      id: Type.String(),
      name: Type.String(),
      fulfillment_set_id: Type.String(),
      fulfillment_set: Type.Object({
        id: Type.String(),
        name: Type.String(),
        type: Type.String(),
        location: Type.Object({ id: Type.String(), name: Type.String() }),
      }),
    }),
  ),
});

/** `POST /store/shipping-options/{id}/calculate`: the option with its price for the cart. */
export const CalculatedShippingOption = Type.Object({
  ...StoreShippingOption.properties,
  calculated_price: CalculatedPrice,
});
export const CalculateShippingOptionBody = Type.Object(
  { cart_id: Id, data: Type.Optional(JsonObject) },
  { additionalProperties: false },
);

export const ShippingOptionEnvelope = Type.Object({ shipping_option: ShippingOption });
export const ShippingOptionList = listEnvelope('shipping_options', ShippingOption);
export const StoreShippingOptionList = Type.Object({ shipping_options: Type.Array(StoreShippingOption) });

const writable = {
  region_id: Type.Optional(Id),
  amount: Type.Optional(Amount),
  price_type: Type.Optional(PriceType),
  provider_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  data: Type.Optional(Nullable(JsonObject)),
  shipping_profile_id: Type.Optional(Id),
  type: Type.Optional(OptionTypeInput),
  type_id: Type.Optional(Id),
  prices: Type.Optional(Type.Array(PriceInput, { maxItems: 100 })),
  rules: Type.Optional(Type.Array(OptionRuleInput, { maxItems: 20 })),
  metadata: Type.Optional(Metadata),
};

/**
 * Two shapes in one body: the spec's `{ name, region_id, amount }` (a flat option of a region),
 * or Medusa's `{ name, service_zone_id, shipping_profile_id, provider_id, price_type, type,
 * prices, rules }` (an option of a service zone).
 */
export const CreateShippingOptionBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 255 }),
    service_zone_id: Type.Optional(Id),
    ...writable,
  },
  { additionalProperties: false },
);

export const UpdateShippingOptionBody = Type.Object(
  { name: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })), ...writable },
  { additionalProperties: false },
);

export const AdminShippingOptionQuery = Type.Object({
  ...pageQuery(20),
  region_id: Type.Optional(Id),
  service_zone_id: Type.Optional(Id),
  shipping_profile_id: Type.Optional(Id),
  stock_location_id: Type.Optional(Id),
  fields: Type.Optional(Type.String({ maxLength: 2000 })),
});

export const StoreShippingOptionQuery = Type.Object({
  cart_id: Id,
  is_return: Type.Optional(Type.Boolean()),
  fields: Type.Optional(Type.String({ maxLength: 2000 })),
});

const RuleFields = {
  attribute: Type.String({ minLength: 1, maxLength: 100 }),
  operator: OptionRuleInput.properties.operator,
  value: OptionRuleInput.properties.value,
};

/** `POST /admin/shipping-options/{id}/rules/batch`: rules added, changed and removed at once (all or nothing). */
export const BatchOptionRulesBody = Type.Object(
  {
    create: Type.Optional(Type.Array(Type.Object(RuleFields, { additionalProperties: false }), { maxItems: 20 })),
    update: Type.Optional(
      Type.Array(Type.Object({ id: Id, ...RuleFields }, { additionalProperties: false }), { maxItems: 20 }),
    ),
    delete: Type.Optional(Type.Array(Id, { maxItems: 20 })),
  },
  { additionalProperties: false },
);

const BatchRule = Type.Object({
  ...OptionRule.properties,
  shipping_option_id: Type.String(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export const BatchOptionRulesResult = Type.Object({
  created: Type.Array(BatchRule),
  updated: Type.Array(BatchRule),
  deleted: Type.Object({
    ids: Type.Array(Type.String()),
    object: Type.Literal('shipping_option_rule'),
    deleted: Type.Literal(true),
  }),
});
export type BatchOptionRulesInput = Static<typeof BatchOptionRulesBody>;

export type CreateShippingOptionInput = Static<typeof CreateShippingOptionBody>;
export type UpdateShippingOptionInput = Static<typeof UpdateShippingOptionBody>;
export type ShippingOptionView = Static<typeof ShippingOption>;
export type PriceInputT = Static<typeof PriceInput>;
