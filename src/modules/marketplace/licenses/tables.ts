import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { idColumn, timestamps, ts } from '../../../platform/db/columns.ts';

/** A license: one item for one shop instance, until expires_at (renewable, revocable). */
export const marketplaceLicenses = pgTable(
  'marketplace_licenses',
  {
    /** Row id `mlic_…`, distinct from the key so the two are never mistaken for each other. */
    id: idColumn(),
    /** `lic_` + 26 random Crockford base32 characters (licenses/license-key.ts). */
    key: text('key').notNull(),
    marketplace_id: text('marketplace_id').notNull(),
    instance_id: text('instance_id').notNull(),
    tier: text('tier').notNull(),
    purchased_by: text('purchased_by').notNull(),
    expires_at: ts('expires_at').notNull(),
    renewed_at: ts('renewed_at'),
    revoked_at: ts('revoked_at'),
    /** Unique: a checkout issues at most one license, however often the provider reports the payment. */
    checkout_session_id: text('checkout_session_id'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('marketplace_licenses_key_idx').on(t.key),
    uniqueIndex('marketplace_licenses_checkout_idx').on(t.checkout_session_id),
    index('marketplace_licenses_item_idx').on(t.marketplace_id, t.id),
  ],
);

export type CallbackStatus = 'pending' | 'succeeded' | 'dead';

/** Durable license-issued deliveries to a shop: sent after commit, retried on the webhook schedule. */
export const marketplaceCallbacks = pgTable(
  'marketplace_callbacks',
  {
    /** Sent as X-Service-Delivery-Id: the same on every retry. */
    id: idColumn(),
    checkout_session_id: text('checkout_session_id').notNull(),
    url: text('url').notNull(),
    /** The exact JSON sent (and signed) on every attempt. */
    body: text('body').notNull(),
    status: text('status').$type<CallbackStatus>().notNull(),
    attempt_count: integer('attempt_count').notNull().default(0),
    next_attempt_at: ts('next_attempt_at'),
    last_status_code: integer('last_status_code'),
    last_error: text('last_error'),
    /** Lease of the sender that claimed it; an expired lease makes it claimable again. */
    locked_until: ts('locked_until'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('marketplace_callbacks_checkout_idx').on(t.checkout_session_id),
    index('marketplace_callbacks_due_idx').on(t.next_attempt_at).where(sql`status = 'pending'`),
  ],
);
