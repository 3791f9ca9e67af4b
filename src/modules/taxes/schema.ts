import { Type, type Static } from 'typebox';
import { pageQuery } from '../../platform/http/pagination.ts';
import { Metadata, Nullable, NullableTimestamp, Timestamp } from '../../platform/http/schema-types.ts';

const Code = Type.String({ minLength: 1, maxLength: 200 });
const Country = Type.String({ pattern: '^[A-Za-z]{2}$', description: 'ISO 3166-1 alpha-2, any case' });
const Province = Type.String({ minLength: 1, maxLength: 100, description: 'ISO 3166-2 subdivision code, e.g. us-ca' });
const Rate = Type.Number({ minimum: 0, maximum: 1000, description: 'percent: 19 for 19 %' });
const InMetadata = Type.Optional(Nullable(Type.Record(Type.String(), Type.Unknown())));
/** Medusa's `fields` and `order` on every list here: accepted, not read (the answer has one shape). */
const listShape = {
  fields: Type.Optional(Type.String({ maxLength: 2000 })),
  order: Type.Optional(Type.String({ maxLength: 100 })),
};

export const RuleInput = Type.Object(
  {
    reference: Type.Union([Type.Literal('product'), Type.Literal('product_type'), Type.Literal('shipping_option')]),
    reference_id: Code,
  },
  { additionalProperties: false },
);

export const CreateTaxRegionBody = Type.Object(
  {
    country_code: Country,
    province_code: Type.Optional(Nullable(Province)),
    parent_id: Type.Optional(Nullable(Code)),
    provider_id: Type.Optional(Nullable(Code)),
    default_tax_rate: Type.Optional(
      Type.Object(
        {
          rate: Type.Optional(Rate),
          code: Code,
          name: Code,
          is_combinable: Type.Optional(Type.Boolean()),
          metadata: InMetadata,
        },
        { additionalProperties: false },
      ),
    ),
    metadata: InMetadata,
  },
  { additionalProperties: false },
);

export const UpdateTaxRegionBody = Type.Object(
  {
    province_code: Type.Optional(Nullable(Province)),
    provider_id: Type.Optional(Nullable(Code)),
    metadata: InMetadata,
  },
  { additionalProperties: false },
);

export const TaxRegionQuery = Type.Object({
  ...pageQuery(),
  country_code: Type.Optional(Type.String({ maxLength: 2 })),
  province_code: Type.Optional(Type.String({ maxLength: 100 })),
  parent_id: Type.Optional(Type.String({ maxLength: 200 })),
  ...listShape,
});

export const CreateTaxRateBody = Type.Object(
  {
    tax_region_id: Code,
    name: Code,
    code: Code,
    rate: Type.Optional(Nullable(Rate)),
    is_default: Type.Optional(Type.Boolean()),
    is_combinable: Type.Optional(Type.Boolean()),
    rules: Type.Optional(Type.Array(RuleInput, { maxItems: 1000 })),
    metadata: InMetadata,
  },
  { additionalProperties: false },
);

export const UpdateTaxRateBody = Type.Object(
  {
    name: Type.Optional(Code),
    code: Type.Optional(Code),
    rate: Type.Optional(Nullable(Rate)),
    is_default: Type.Optional(Type.Boolean()),
    is_combinable: Type.Optional(Type.Boolean()),
    rules: Type.Optional(Type.Array(RuleInput, { maxItems: 1000 })),
    metadata: InMetadata,
  },
  { additionalProperties: false },
);

export const TaxRateQuery = Type.Object({
  ...pageQuery(),
  tax_region_id: Type.Optional(Type.String({ maxLength: 200 })),
  is_default: Type.Optional(Type.Boolean()),
  ...listShape,
});

const stamps = { created_at: Timestamp, updated_at: Timestamp, deleted_at: NullableTimestamp };

export const TaxRateRule = Type.Object({
  id: Type.String(),
  reference: Type.String(),
  reference_id: Type.String(),
  tax_rate_id: Type.String(),
});

export const TaxRate = Type.Object({
  id: Type.String(),
  tax_region_id: Type.String(),
  name: Type.String(),
  code: Type.String(),
  rate: Nullable(Type.Number()),
  is_default: Type.Boolean(),
  is_combinable: Type.Boolean(),
  rules: Type.Array(TaxRateRule),
  metadata: Metadata,
  created_by: Nullable(Type.String()),
  ...stamps,
});

export const TaxRegion = Type.Object({
  id: Type.String(),
  country_code: Type.String(),
  province_code: Nullable(Type.String()),
  parent_id: Nullable(Type.String()),
  provider_id: Nullable(Type.String()),
  tax_rates: Type.Array(TaxRate),
  metadata: Metadata,
  created_by: Nullable(Type.String()),
  ...stamps,
});

export const CreatePricePreferenceBody = Type.Object(
  {
    attribute: Type.Union([Type.Literal('region_id'), Type.Literal('currency_code')]),
    value: Code,
    is_tax_inclusive: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export const UpdatePricePreferenceBody = Type.Object(
  {
    attribute: Type.Optional(Type.Union([Type.Literal('region_id'), Type.Literal('currency_code')])),
    value: Type.Optional(Code),
    is_tax_inclusive: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export const PricePreferenceQuery = Type.Object({
  ...pageQuery(),
  attribute: Type.Optional(Type.String({ maxLength: 50 })),
  value: Type.Optional(Type.String({ maxLength: 200 })),
  ...listShape,
});
export const PricePreference = Type.Object({
  id: Type.String(),
  attribute: Type.String(),
  value: Type.String(),
  is_tax_inclusive: Type.Boolean(),
  ...stamps,
});

export type CreateTaxRegionInput = Static<typeof CreateTaxRegionBody>;
export type UpdateTaxRegionInput = Static<typeof UpdateTaxRegionBody>;
export type CreateTaxRateInput = Static<typeof CreateTaxRateBody>;
export type UpdateTaxRateInput = Static<typeof UpdateTaxRateBody>;
export type TaxRateView = Static<typeof TaxRate>;
export type TaxRegionView = Static<typeof TaxRegion>;
export type PricePreferenceView = Static<typeof PricePreference>;
