import { type Static, Type } from 'typebox';
import { listEnvelope, pageQuery } from '../../platform/http/pagination.ts';
import { Metadata, Nullable, Timestamp } from '../../platform/http/schema-types.ts';
import { SalesChannel } from '../sales-channels/schema.ts';
import { FulfillmentSet } from '../fulfillment/schema.ts';

const text = (max = 255) => Type.String({ maxLength: max });

export const StockLocationAddress = Type.Object({
  id: Type.String(),
  address_1: Type.String(),
  address_2: Nullable(Type.String()),
  company: Nullable(Type.String()),
  city: Nullable(Type.String()),
  country_code: Type.String(),
  phone: Nullable(Type.String()),
  province: Nullable(Type.String()),
  postal_code: Nullable(Type.String()),
  metadata: Metadata,
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const StockLocation = Type.Object({
  id: Type.String(),
  name: Type.String(),
  address_id: Nullable(Type.String()),
  address: Nullable(StockLocationAddress),
  metadata: Metadata,
  created_at: Timestamp,
  updated_at: Timestamp,
  sales_channels: Type.Optional(Type.Array(SalesChannel)),
  /** With `fields=*fulfillment_sets`: its sets, their service zones and geo zones. */
  fulfillment_sets: Type.Optional(Type.Array(FulfillmentSet)),
  /** With `fields=*fulfillment_providers`: the providers that ship from it (none: every provider). */
  fulfillment_providers: Type.Optional(Type.Array(Type.Object({ id: Type.String(), is_enabled: Type.Boolean() }))),
});

export const StockLocationEnvelope = Type.Object({ stock_location: StockLocation });
export const StockLocationList = listEnvelope('stock_locations', StockLocation);

export const AddressBody = Type.Object(
  {
    address_1: Type.String({ minLength: 1, maxLength: 255 }),
    address_2: Type.Optional(Nullable(text())),
    company: Type.Optional(Nullable(text())),
    city: Type.Optional(Nullable(text())),
    country_code: Type.String({ pattern: '^[A-Za-z]{2}$' }),
    phone: Type.Optional(Nullable(text(50))),
    province: Type.Optional(Nullable(text())),
    postal_code: Type.Optional(Nullable(text(50))),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false },
);
export type AddressInput = Static<typeof AddressBody>;

const name = Type.String({ minLength: 1, maxLength: 255, pattern: '\\S' });

export const CreateStockLocationBody = Type.Object(
  {
    name,
    address: Type.Optional(AddressBody),
    address_id: Type.Optional(Nullable(text(200))),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false },
);

export const UpdateStockLocationBody = Type.Object(
  {
    name: Type.Optional(name),
    address: Type.Optional(AddressBody),
    address_id: Type.Optional(Nullable(text(200))),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false },
);

const textList = Type.Array(Type.String({ maxLength: 255 }), { maxItems: 100 });

export const StockLocationQuery = Type.Object({
  ...pageQuery(20),
  q: Type.Optional(Type.String({ maxLength: 200, description: 'matches the name, case-insensitively' })),
  id: Type.Optional(textList),
  name: Type.Optional(textList),
  address_id: Type.Optional(textList),
  sales_channel_id: Type.Optional(textList),
  fields: Type.Optional(Type.String({ maxLength: 2000 })),
});

export const FieldsQuery = Type.Object({ fields: Type.Optional(Type.String({ maxLength: 2000 })) });
