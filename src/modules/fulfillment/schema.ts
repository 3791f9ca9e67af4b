import { type Static, Type } from 'typebox';
import { listEnvelope, pageQuery } from '../../platform/http/pagination.ts';
import { Metadata, Nullable, Timestamp } from '../../platform/http/schema-types.ts';

const Id = Type.String({ minLength: 1, maxLength: 200 });
const Name = Type.String({ minLength: 1, maxLength: 255, pattern: '\\S' });
const textList = Type.Array(Type.String({ maxLength: 255 }), { maxItems: 100 });

export const ShippingProfile = Type.Object({
  id: Type.String(),
  name: Type.String(),
  type: Type.String(),
  metadata: Metadata,
  created_at: Timestamp,
  updated_at: Timestamp,
  deleted_at: Nullable(Timestamp),
});
export const ShippingProfileEnvelope = Type.Object({ shipping_profile: ShippingProfile });
export const ShippingProfileList = listEnvelope('shipping_profiles', ShippingProfile);
export const CreateShippingProfileBody = Type.Object(
  { name: Name, type: Type.String({ minLength: 1, maxLength: 100 }), metadata: Type.Optional(Metadata) },
  { additionalProperties: false },
);
export const UpdateShippingProfileBody = Type.Object(
  {
    name: Type.Optional(Name),
    type: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false },
);
export const ShippingProfileQuery = Type.Object({
  ...pageQuery(20),
  q: Type.Optional(Type.String({ maxLength: 200 })),
  id: Type.Optional(textList),
  name: Type.Optional(textList),
  type: Type.Optional(textList),
  fields: Type.Optional(Type.String({ maxLength: 2000 })),
});

const CountryCode = Type.String({ pattern: '^[A-Za-z]{2}$' });
const GeoText = Type.String({ minLength: 1, maxLength: 255 });
const PostalExpression = Type.Union([
  Type.String({ minLength: 1, maxLength: 50 }),
  Type.Record(Type.String(), Type.Unknown()),
]);

export const GeoZone = Type.Object({
  id: Type.String(),
  type: Type.Union([Type.Literal('country'), Type.Literal('province'), Type.Literal('city'), Type.Literal('zip')]),
  country_code: Type.String(),
  province_code: Nullable(Type.String()),
  city: Nullable(Type.String()),
  postal_expression: Nullable(Type.Unknown()),
  service_zone_id: Type.String(),
  metadata: Metadata,
  created_at: Timestamp,
  updated_at: Timestamp,
});

/** Medusa's geo zone input: what a type needs besides the country is required for it. */
export const GeoZoneInput = Type.Union([
  Type.Object(
    {
      id: Type.Optional(Id),
      type: Type.Literal('country'),
      country_code: CountryCode,
      metadata: Type.Optional(Metadata),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      id: Type.Optional(Id),
      type: Type.Literal('province'),
      country_code: CountryCode,
      province_code: GeoText,
      metadata: Type.Optional(Metadata),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      id: Type.Optional(Id),
      type: Type.Literal('city'),
      country_code: CountryCode,
      province_code: GeoText,
      city: GeoText,
      metadata: Type.Optional(Metadata),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      id: Type.Optional(Id),
      type: Type.Literal('zip'),
      country_code: CountryCode,
      province_code: GeoText,
      city: GeoText,
      postal_expression: PostalExpression,
      metadata: Type.Optional(Metadata),
    },
    { additionalProperties: false },
  ),
]);
export type GeoZoneInputT = Static<typeof GeoZoneInput>;

export const ServiceZone = Type.Object({
  id: Type.String(),
  name: Type.String(),
  fulfillment_set_id: Type.String(),
  region_id: Nullable(Type.String()),
  geo_zones: Type.Array(GeoZone),
  metadata: Metadata,
  created_at: Timestamp,
  updated_at: Timestamp,
});
export const ServiceZoneEnvelope = Type.Object({ service_zone: ServiceZone });

export const FulfillmentSetType = Type.Union([Type.Literal('shipping'), Type.Literal('pickup')]);
export const FulfillmentSet = Type.Object({
  id: Type.String(),
  name: Type.String(),
  type: FulfillmentSetType,
  location_id: Type.String(),
  service_zones: Type.Array(ServiceZone),
  metadata: Metadata,
  created_at: Timestamp,
  updated_at: Timestamp,
});
export const FulfillmentSetEnvelope = Type.Object({ fulfillment_set: FulfillmentSet });

export const CreateFulfillmentSetBody = Type.Object(
  { name: Name, type: FulfillmentSetType, metadata: Type.Optional(Metadata) },
  { additionalProperties: false },
);
export const CreateServiceZoneBody = Type.Object(
  {
    name: Name,
    geo_zones: Type.Optional(Type.Array(GeoZoneInput, { maxItems: 1000 })),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false },
);
export const UpdateServiceZoneBody = Type.Object(
  {
    name: Type.Optional(Name),
    geo_zones: Type.Optional(Type.Array(GeoZoneInput, { maxItems: 1000 })),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false },
);
export const ZoneParams = Type.Object({ id: Id, zone_id: Id });

export const FulfillmentProvider = Type.Object({
  id: Type.String(),
  is_enabled: Type.Boolean(),
  name: Type.String(),
  plugin: Nullable(Type.String()),
});
export const FulfillmentProviderList = listEnvelope('fulfillment_providers', FulfillmentProvider);
export const FulfillmentProviderQuery = Type.Object({
  ...pageQuery(20),
  id: Type.Optional(textList),
  is_enabled: Type.Optional(Type.Boolean()),
  stock_location_id: Type.Optional(textList),
  fields: Type.Optional(Type.String({ maxLength: 2000 })),
});
export const FulfillmentOptionList = Type.Object({
  fulfillment_options: Type.Array(Type.Record(Type.String(), Type.Unknown())),
});

export type CreateServiceZoneInput = Static<typeof CreateServiceZoneBody>;
export type UpdateServiceZoneInput = Static<typeof UpdateServiceZoneBody>;
