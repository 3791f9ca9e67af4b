import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { idColumn, timestamps, ts } from '../../../platform/db/columns.ts';

export type VendorStatus = 'unverified' | 'invited' | 'active' | 'suspended';
export type VendorScope = 'read' | 'publish' | 'tokens';

/** A publisher on this marketplace: signs up (email verified) or is invited by the operator. */
export const marketplaceVendors = pgTable(
  'marketplace_vendors',
  {
    /** `mven_…`. */
    id: idColumn(),
    name: text('name').notNull(),
    /** Lower-cased; one account per address. */
    email: text('email').notNull(),
    /** `unverified` (signed up) and `invited` become `active` when the emailed link is used. */
    status: text('status').$type<VendorStatus>().notNull(),
    verified_at: ts('verified_at'),
    /** A trusted vendor's versions that pass the automatic checks skip the operator's review. */
    trusted: boolean('trusted').notNull().default(false),
    /** The marketplace's share of each of this vendor's sales, in percent (the operator sets it). */
    commission_percent: integer('commission_percent').notNull().default(20),
    /** The Stripe connected account (`acct_…`) its share is transferred to; none: the share waits. */
    payout_account: text('payout_account'),
    ...timestamps,
  },
  (t) => [uniqueIndex('marketplace_vendors_email_idx').on(t.email)],
);

/** `@acme` belongs to one vendor: it publishes `@acme/*` and nobody else does. */
export const marketplaceVendorNamespaces = pgTable(
  'marketplace_vendor_namespaces',
  {
    /** Without the `@` (the manifest's `vendor` field). */
    namespace: text('namespace').primaryKey(),
    vendor_id: text('vendor_id')
      .notNull()
      .references(() => marketplaceVendors.id, { onDelete: 'cascade' }),
    created_at: ts('created_at').notNull(),
  },
  (t) => [index('marketplace_vendor_namespaces_vendor_idx').on(t.vendor_id)],
);

/** API tokens of a vendor (CI): only a sha256 is kept; the token is shown once, at creation. */
export const marketplaceVendorTokens = pgTable(
  'marketplace_vendor_tokens',
  {
    /** `mvt_…`: names the token in lists and revocation; the secret is `mvk_…`. */
    id: idColumn(),
    vendor_id: text('vendor_id')
      .notNull()
      .references(() => marketplaceVendors.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    token_hash: text('token_hash').notNull(),
    scopes: jsonb('scopes').$type<VendorScope[]>().notNull(),
    last_used_at: ts('last_used_at'),
    revoked_at: ts('revoked_at'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('marketplace_vendor_tokens_hash_idx').on(t.token_hash),
    index('marketplace_vendor_tokens_vendor_idx').on(t.vendor_id),
  ],
);

/** A pending email verification (sign-up or invitation): single use, only its sha256 stored. */
export const marketplaceVendorVerifications = pgTable(
  'marketplace_vendor_verifications',
  {
    token_hash: text('token_hash').primaryKey(),
    vendor_id: text('vendor_id')
      .notNull()
      .references(() => marketplaceVendors.id, { onDelete: 'cascade' }),
    /** The namespace a sign-up asked for: claimed only once the address is verified. */
    namespace: text('namespace'),
    expires_at: ts('expires_at').notNull(),
    used_at: ts('used_at'),
    created_at: ts('created_at').notNull(),
  },
  (t) => [index('marketplace_vendor_verifications_vendor_idx').on(t.vendor_id).where(sql`used_at is null`)],
);
