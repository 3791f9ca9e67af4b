import { Type, type TSchema } from 'typebox';
import { listEnvelope, pageQuery } from '../../platform/http/pagination.ts';
import { Metadata, Nullable, Timestamp } from '../../platform/http/schema-types.ts';
import { CustomerAddress } from './address-schema.ts';

export const Customer = Type.Object({
  id: Type.String(),
  email: Nullable(Type.String()),
  first_name: Nullable(Type.String()),
  last_name: Nullable(Type.String()),
  phone: Nullable(Type.String()),
  company_name: Nullable(Type.String()),
  has_account: Type.Boolean(),
  metadata: Metadata,
  created_by: Nullable(Type.String()),
  created_at: Timestamp,
  updated_at: Timestamp,
  addresses: Type.Array(CustomerAddress),
});

export const CustomerEnvelope = Type.Object({ customer: Customer });

/** The store's customer: with `orders` when `fields` asks for them (`*orders`, `orders.id`, …), in their owner's shape. */
export const storeCustomerEnvelope = (order: TSchema) =>
  Type.Object({ customer: Type.Object({ ...Customer.properties, orders: Type.Optional(Type.Array(order)) }) });

export const StoreCustomerQuery = Type.Object({
  fields: Type.Optional(Type.String({ maxLength: 2000, description: "Medusa's fields; `*orders` adds the orders" })),
});
export const CustomerList = listEnvelope('customers', Customer);

const text = Nullable(Type.String({ maxLength: 255 }));
const email = Type.String({ format: 'email', maxLength: 320 });

const ownFields = {
  first_name: Type.Optional(text),
  last_name: Type.Optional(text),
  phone: Type.Optional(text),
  company_name: Type.Optional(text),
  metadata: Type.Optional(Metadata),
};

/** Admin create and update; also the store's `POST /store/customers` (its email must be the login's). */
export const CustomerBody = Type.Object({ email: Type.Optional(email), ...ownFields }, { additionalProperties: false });

/** `POST /store/customers/me`: the email is the login and cannot be changed here. */
export const OwnCustomerBody = Type.Object(ownFields, { additionalProperties: false });

export const AdminCustomerQuery = Type.Object({
  ...pageQuery(50),
  q: Type.Optional(Type.String({ maxLength: 200, description: 'substring of email, first or last name, any case' })),
  email: Type.Optional(
    Type.Union([Type.String({ maxLength: 320 }), Type.Array(Type.String({ maxLength: 320 }), { maxItems: 100 })], {
      description: 'exact email(s), any case',
    }),
  ),
  has_account: Type.Optional(Type.Boolean()),
  groups: Type.Optional(
    Type.Union([Type.String({ maxLength: 200 }), Type.Array(Type.String({ maxLength: 200 }), { maxItems: 100 })], {
      description: 'customer group id(s): members of any',
    }),
  ),
});

export const RegisterBody = Type.Object(
  { email, password: Type.String({ minLength: 8, maxLength: 1024 }) },
  { additionalProperties: false },
);
