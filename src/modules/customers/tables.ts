import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { idColumn, metadata, softDelete, timestamps } from '../../platform/db/columns.ts';

/**
 * Customers: guests (created by the admin or, later, by checkout) and account holders.
 * An email belongs to at most one live account holder; guests may share it (with each other
 * and with the account holder), as in Medusa.
 */
export const customers = pgTable(
  'customers',
  {
    id: idColumn(),
    email: text('email'),
    first_name: text('first_name'),
    last_name: text('last_name'),
    phone: text('phone'),
    company_name: text('company_name'),
    has_account: boolean('has_account').notNull().default(false),
    ...metadata,
    created_by: text('created_by'),
    ...timestamps,
    ...softDelete,
  },
  (t) => [
    uniqueIndex('customers_account_email_idx')
      .on(sql`lower(${t.email})`)
      .where(sql`deleted_at is null and has_account`),
    index('customers_email_idx').on(sql`lower(${t.email})`),
    // The desk's `q` (a part of the email or a name, any case): trigrams, so a search among
    // 200,000 customers reads the matching rows, not all of them.
    ...(['email', 'first_name', 'last_name'] as const).map((c) =>
      index(`customers_${c}_trgm_idx`).using('gin', sql`${t[c]} gin_trgm_ops`).with({ gin_pending_list_limit: 128 }),
    ),
  ],
);

/**
 * Storefront logins (emailpass). Kept apart from `users` so a shopper and an admin may share an
 * email. `customer_id` is null between register and `POST /store/customers`, and again after
 * the customer is deleted (the login survives and may create a new account).
 */
export const customerAuthIdentities = pgTable(
  'customer_auth_identities',
  {
    id: idColumn(),
    email: text('email').notNull(),
    password_hash: text('password_hash').notNull(),
    customer_id: text('customer_id'),
    /** Raised by every password change; a token carries the version it was issued at, and an older one is refused. */
    token_version: integer('token_version').notNull().default(0),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('customer_auth_identities_email_idx').on(sql`lower(${t.email})`),
    index('customer_auth_identities_customer_idx').on(t.customer_id),
  ],
);

/**
 * A customer's address book (Medusa's customer addresses). At most one default shipping and one
 * default billing address per customer, held by partial unique indexes; the service clears the
 * old default in the same transaction. Deleted with the row (nothing references an address:
 * carts and orders copy theirs).
 */
export const customerAddresses = pgTable(
  'customer_addresses',
  {
    id: idColumn(),
    customer_id: text('customer_id').notNull(),
    address_name: text('address_name'),
    is_default_shipping: boolean('is_default_shipping').notNull().default(false),
    is_default_billing: boolean('is_default_billing').notNull().default(false),
    company: text('company'),
    first_name: text('first_name'),
    last_name: text('last_name'),
    address_1: text('address_1'),
    address_2: text('address_2'),
    city: text('city'),
    country_code: text('country_code'),
    province: text('province'),
    postal_code: text('postal_code'),
    phone: text('phone'),
    ...metadata,
    ...timestamps,
  },
  (t) => [
    index('customer_addresses_customer_idx').on(t.customer_id, t.id),
    uniqueIndex('customer_addresses_default_shipping_idx').on(t.customer_id).where(sql`is_default_shipping`),
    uniqueIndex('customer_addresses_default_billing_idx').on(t.customer_id).where(sql`is_default_billing`),
  ],
);
