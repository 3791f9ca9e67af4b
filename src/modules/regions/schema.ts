import { Type } from 'typebox';
import { listEnvelope, pageQuery } from '../../platform/http/pagination.ts';
import { Metadata, Timestamp } from '../../platform/http/schema-types.ts';

export const RegionCountry = Type.Object({
  iso_2: Type.String(),
  iso_3: Type.String(),
  num_code: Type.String(),
  name: Type.String(),
  display_name: Type.String(),
  region_id: Type.String(),
});

export const Region = Type.Object({
  id: Type.String(),
  name: Type.String(),
  currency_code: Type.String(),
  automatic_taxes: Type.Boolean(),
  is_tax_inclusive: Type.Boolean(),
  metadata: Metadata,
  created_at: Timestamp,
  updated_at: Timestamp,
  countries: Type.Array(RegionCountry),
});

export const RegionEnvelope = Type.Object({ region: Region });
/**
 * The admin's region also carries the payment providers it names (Medusa's `payment_providers`),
 * each with whether a plugin runs it now; none named means the built-in manual provider only.
 */
export const AdminRegionEnvelope = Type.Object({
  region: Type.Object({
    ...Region.properties,
    payment_providers: Type.Array(Type.Object({ id: Type.String(), is_enabled: Type.Boolean() })),
  }),
});
export const RegionList = listEnvelope('regions', Region);

// Code lists (ISO 4217, ISO 3166-1) are checked by the service, which names the offending field.
const fields = {
  name: Type.String({ minLength: 1, maxLength: 255 }),
  currency_code: Type.String({ minLength: 1, maxLength: 16 }),
  countries: Type.Array(Type.String({ maxLength: 16 }), { maxItems: 300 }),
  automatic_taxes: Type.Boolean(),
  is_tax_inclusive: Type.Boolean(),
  payment_providers: Type.Array(Type.String({ maxLength: 200 }), { maxItems: 50 }),
  metadata: Metadata,
};

/** What a create may leave out and an update may change alone. */
const optionalFields = {
  countries: Type.Optional(fields.countries),
  automatic_taxes: Type.Optional(fields.automatic_taxes),
  is_tax_inclusive: Type.Optional(fields.is_tax_inclusive),
  payment_providers: Type.Optional(fields.payment_providers),
  metadata: Type.Optional(fields.metadata),
};

export const CreateRegionBody = Type.Object(
  { name: fields.name, currency_code: fields.currency_code, ...optionalFields },
  { additionalProperties: false },
);

export const UpdateRegionBody = Type.Object(
  { name: Type.Optional(fields.name), currency_code: Type.Optional(fields.currency_code), ...optionalFields },
  { additionalProperties: false },
);

// A single `id=` value is coerced to a one-element array by the validator; commas also split.
const idList = Type.Array(Type.String({ maxLength: 200 }), { maxItems: 100 });

export const StoreRegionQuery = Type.Object({
  ...pageQuery(50),
  q: Type.Optional(Type.String({ maxLength: 200, description: 'matches the name, case-insensitively' })),
  id: Type.Optional(idList),
});

export const AdminRegionQuery = Type.Object({
  ...StoreRegionQuery.properties,
  currency_code: Type.Optional(Type.Array(Type.String({ maxLength: 16 }), { maxItems: 100 })),
});
