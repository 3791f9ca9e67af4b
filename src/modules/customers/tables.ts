import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
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
    ...timestamps,
  },
  (t) => [
    uniqueIndex('customer_auth_identities_email_idx').on(sql`lower(${t.email})`),
    index('customer_auth_identities_customer_idx').on(t.customer_id),
  ],
);
