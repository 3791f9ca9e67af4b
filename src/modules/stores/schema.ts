import { Type } from 'typebox';
import { Metadata, Nullable, NullableTimestamp, Timestamp } from '../../platform/http/schema-types.ts';

export const Currency = Type.Object({
  code: Type.String(),
  name: Type.String(),
  symbol: Type.String(),
  symbol_native: Type.String(),
  decimal_digits: Type.Integer(),
  rounding: Type.Number(),
});

const StoreCurrency = Type.Object({
  id: Type.String(),
  currency_code: Type.String(),
  store_id: Type.String(),
  is_default: Type.Boolean(),
  is_tax_inclusive: Type.Boolean(),
  currency: Currency,
  created_at: Timestamp,
  updated_at: Timestamp,
  deleted_at: NullableTimestamp,
});

export const Store = Type.Object({
  id: Type.String(),
  name: Type.String(),
  supported_currencies: Type.Array(StoreCurrency),
  default_sales_channel_id: Nullable(Type.String()),
  default_region_id: Nullable(Type.String()),
  default_location_id: Nullable(Type.String()),
  metadata: Metadata,
  created_at: Timestamp,
  updated_at: Timestamp,
});

const Id = Type.String({ minLength: 1, maxLength: 200 });

export const UpdateStoreBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    supported_currencies: Type.Optional(
      Type.Array(
        Type.Object(
          {
            currency_code: Type.String({ minLength: 3, maxLength: 3 }),
            is_default: Type.Optional(Type.Boolean()),
            is_tax_inclusive: Type.Optional(Type.Boolean()),
          },
          { additionalProperties: false },
        ),
        { maxItems: 200 },
      ),
    ),
    default_sales_channel_id: Type.Optional(Nullable(Id)),
    default_region_id: Type.Optional(Nullable(Id)),
    default_location_id: Type.Optional(Nullable(Id)),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false },
);

const Codes = Type.Union([Type.String({ maxLength: 3 }), Type.Array(Type.String({ maxLength: 3 }), { maxItems: 200 })]);

export const CurrencyListQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 100 })),
  code: Type.Optional(Codes),
});
