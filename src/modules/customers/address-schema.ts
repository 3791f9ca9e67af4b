import { Type, type Static } from 'typebox';
import { pageQuery } from '../../platform/http/pagination.ts';
import { Metadata, Nullable, Timestamp } from '../../platform/http/schema-types.ts';

/** Medusa's customer address. */
export const CustomerAddress = Type.Object({
  id: Type.String(),
  customer_id: Type.String(),
  address_name: Nullable(Type.String()),
  is_default_shipping: Type.Boolean(),
  is_default_billing: Type.Boolean(),
  company: Nullable(Type.String()),
  first_name: Nullable(Type.String()),
  last_name: Nullable(Type.String()),
  address_1: Nullable(Type.String()),
  address_2: Nullable(Type.String()),
  city: Nullable(Type.String()),
  country_code: Nullable(Type.String()),
  province: Nullable(Type.String()),
  postal_code: Nullable(Type.String()),
  phone: Nullable(Type.String()),
  metadata: Metadata,
  created_at: Timestamp,
  updated_at: Timestamp,
});

const text = Type.Optional(Nullable(Type.String({ maxLength: 1000 })));

// Medusa's storefront posts every form field, empty strings included.
const addressFields = {
  address_name: text,
  is_default_shipping: Type.Optional(Type.Boolean()),
  is_default_billing: Type.Optional(Type.Boolean()),
  company: text,
  first_name: text,
  last_name: text,
  address_1: text,
  address_2: text,
  city: text,
  country_code: Type.Optional(
    Nullable(Type.String({ maxLength: 2, pattern: '^([a-zA-Z]{2})?$', description: 'ISO 3166-1 alpha-2, any case' })),
  ),
  province: text,
  postal_code: text,
  phone: text,
  metadata: Type.Optional(Metadata),
};

export const AddressBody = Type.Object(addressFields, { additionalProperties: false });
export const AddressParams = Type.Object({ address_id: Type.String({ minLength: 1, maxLength: 200 }) });
export const AddressListQuery = Type.Object({
  ...pageQuery(50),
  fields: Type.Optional(Type.String({ maxLength: 2000 })),
});

/** A page of a customer's addresses (store and admin alike). */
export const AddressList = Type.Object({
  addresses: Type.Array(CustomerAddress),
  count: Type.Integer(),
  limit: Type.Integer(),
  offset: Type.Integer(),
});
export type AddressInput = Static<typeof AddressBody>;
export type AddressView = Static<typeof CustomerAddress>;
