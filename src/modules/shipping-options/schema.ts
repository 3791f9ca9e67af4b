import { Type, type Static } from 'typebox';
import { Money } from '../../platform/money/schema.ts';
import { listEnvelope, pageQuery } from '../../platform/http/pagination.ts';
import { Nullable, Timestamp } from '../../platform/http/schema-types.ts';

const Id = Type.String({ minLength: 1, maxLength: 200 });
const JsonObject = Type.Record(Type.String(), Type.Unknown());
const Amount = Money({
  minimum: 0,
  maximum: Number.MAX_SAFE_INTEGER,
  description: "flat price in the region's currency",
});

export const ShippingOption = Type.Object({
  id: Type.String(),
  name: Type.String(),
  region_id: Type.String(),
  price_type: Type.Literal('flat'),
  amount: Money(),
  currency_code: Type.String({ description: "the region's" }),
  provider_id: Type.String(),
  data: Nullable(JsonObject),
  created_at: Timestamp,
  updated_at: Timestamp,
});

/** What a storefront sees (Medusa's store shape: no taxes, inventory never short for manual shipping). */
export const StoreShippingOption = Type.Object({
  id: Type.String(),
  name: Type.String(),
  region_id: Type.String(),
  price_type: Type.Literal('flat'),
  amount: Money(),
  currency_code: Type.String({ description: "the region's" }),
  provider_id: Type.String(),
  data: Nullable(JsonObject),
  is_tax_inclusive: Type.Boolean(),
  insufficient_inventory: Type.Boolean(),
});

/** `POST /store/shipping-options/{id}/calculate`: the option with its price for the cart (flat: its amount). */
export const CalculatedShippingOption = Type.Object({
  ...StoreShippingOption.properties,
  calculated_price: Type.Object({
    calculated_amount: Money(),
    original_amount: Money(),
    currency_code: Type.String(),
    is_calculated_price_tax_inclusive: Type.Boolean(),
    is_original_price_tax_inclusive: Type.Boolean(),
  }),
});
export const CalculateShippingOptionBody = Type.Object(
  { cart_id: Id, data: Type.Optional(JsonObject) },
  { additionalProperties: false },
);

export const ShippingOptionEnvelope = Type.Object({ shipping_option: ShippingOption });
export const ShippingOptionList = listEnvelope('shipping_options', ShippingOption);
export const StoreShippingOptionList = Type.Object({ shipping_options: Type.Array(StoreShippingOption) });

export const CreateShippingOptionBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 255 }),
    region_id: Id,
    amount: Amount,
    price_type: Type.Optional(Type.Literal('flat')),
    provider_id: Type.Optional(Type.Literal('manual_manual')),
    data: Type.Optional(Nullable(JsonObject)),
  },
  { additionalProperties: false },
);

export const UpdateShippingOptionBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
    region_id: Type.Optional(Id),
    amount: Type.Optional(Amount),
    price_type: Type.Optional(Type.Literal('flat')),
    provider_id: Type.Optional(Type.Literal('manual_manual')),
    data: Type.Optional(Nullable(JsonObject)),
  },
  { additionalProperties: false },
);

export const AdminShippingOptionQuery = Type.Object({
  ...pageQuery(20),
  region_id: Type.Optional(Id),
});

export const StoreShippingOptionQuery = Type.Object({ cart_id: Id });

export type CreateShippingOptionInput = Static<typeof CreateShippingOptionBody>;
export type UpdateShippingOptionInput = Static<typeof UpdateShippingOptionBody>;
export type ShippingOptionView = Static<typeof ShippingOption>;
