import { sql } from 'drizzle-orm';
import { boolean, customType, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { idColumn, timestamps, ts } from '../../platform/db/columns.ts';
import type { PluginManifest } from '../../plugin-package/manifest.ts';

/** bytea as a Buffer on both drivers (PGlite hands back a Uint8Array, pg a Buffer). */
const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});

/** `revoked`: was approved, then taken back (revocations.ts); like the others, out of the feed and downloads. */
export type ReviewStatus = 'in_review' | 'approved' | 'rejected' | 'revoked';
export interface ReviewCheck {
  name: 'manifest' | 'permissions' | 'size' | 'sql';
  ok: boolean;
  detail: string;
}
export interface ReviewChecks {
  checks: ReviewCheck[];
  permissions: string[];
}

/** A plugin in the catalog (marketplace role), created by its first published version. */
export const marketplaceItems = pgTable(
  'marketplace_items',
  {
    id: idColumn(),
    /** `@<vendor>/<manifest id>`. */
    marketplace_id: text('marketplace_id').notNull(),
    vendor: text('vendor').notNull(),
    manifest_id: text('manifest_id').notNull(),
    name: text('name').notNull(),
    type: text('type').notNull(),
    description: text('description').notNull().default(''),
    /** Euro cents: the API speaks euros (`price_eur`), storage and arithmetic stay integral. 0 = free. */
    price_cents: integer('price_cents').notNull().default(0),
    changelog_url: text('changelog_url'),
    /** False once unpublished: out of the feed, its versions no longer downloadable. */
    published: boolean('published').notNull().default(true),
    unpublished_at: ts('unpublished_at'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('marketplace_items_marketplace_id_idx').on(t.marketplace_id),
    index('marketplace_items_feed_idx').on(t.marketplace_id).where(sql`published`),
  ],
);

export const marketplaceVersions = pgTable(
  'marketplace_versions',
  {
    id: idColumn(),
    item_id: text('item_id')
      .notNull()
      .references(() => marketplaceItems.id, { onDelete: 'cascade' }),
    /** As published (the signed text uses it verbatim). */
    version: text('version').notNull(),
    /** versionSortKey(version): orders numerically, and makes `1.0` and `1.0.0` the same version. */
    version_key: text('version_key').notNull(),
    manifest: jsonb('manifest').$type<PluginManifest>().notNull(),
    sha256: text('sha256').notNull(),
    size: integer('size').notNull(),
    /** base64 Ed25519 signature over `<marketplace_id>@<version>:<sha256>`, and the key that made it. */
    signature: text('signature').notNull(),
    key_id: text('key_id').notNull(),
    changelog_url: text('changelog_url'),
    published_at: ts('published_at').notNull(),
    /** Only `approved` versions reach the feed, downloads and updates (catalog/review.ts). */
    status: text('status').$type<ReviewStatus>().notNull().default('approved'),
    /** Why it was rejected (shown to the vendor), or the operator's note on approval. */
    review_reason: text('review_reason'),
    /** The automatic checks run at upload, and the permissions in plain words the reviewer reads. */
    review_checks: jsonb('review_checks').$type<ReviewChecks>(),
    reviewed_at: ts('reviewed_at'),
  },
  (t) => [
    uniqueIndex('marketplace_versions_item_version_idx').on(t.item_id, t.version_key),
    index('marketplace_versions_review_idx').on(t.published_at).where(sql`status = 'in_review'`),
  ],
);

/** The package bytes, apart from the version rows so that listing versions never reads them. */
export const marketplaceArtifacts = pgTable('marketplace_artifacts', {
  version_id: text('version_id')
    .primaryKey()
    .references(() => marketplaceVersions.id, { onDelete: 'cascade' }),
  bytes: bytea('bytes').notNull(),
});

/** Ed25519 keys of this marketplace. One is active (signs); old ones stay published for verification. */
export const marketplaceSigningKeys = pgTable(
  'marketplace_signing_keys',
  {
    /** First 16 hex characters of sha256(raw public key). */
    key_id: text('key_id').primaryKey(),
    /** base64 of the raw 32-byte public key. */
    public_key: text('public_key').notNull(),
    /** PKCS#8 DER private key, base64, encrypted with ENCRYPTION_KEY (platform/crypto.ts). */
    private_key_encrypted: text('private_key_encrypted').notNull(),
    active: boolean('active').notNull(),
    created_at: ts('created_at').notNull(),
    /** A revoked key signs nothing more and is listed on the revocation list; shops refuse what it signed. */
    revoked_at: ts('revoked_at'),
  },
  // At most one active key: concurrent first starts race on this index, and one key wins.
  (t) => [uniqueIndex('marketplace_signing_keys_active_idx').on(t.active).where(sql`active`)],
);

export type CheckoutStatus = 'open' | 'paid' | 'expired';
export type PaymentProviderId = 'test' | 'stripe';

/** A paid purchase in progress: one item version for one shop instance, through one payment provider. */
export const marketplaceCheckoutSessions = pgTable(
  'marketplace_checkout_sessions',
  {
    /** `mcs_…`; whoever holds it can read the license key once paid, so it is not guessable (see sales/checkout.ts). */
    id: idColumn(),
    marketplace_id: text('marketplace_id').notNull(),
    version: text('version').notNull(),
    customer_email: text('customer_email').notNull(),
    instance_id: text('instance_id').notNull(),
    /** The shop's base URL; license-issued is POSTed to `{callback_url}/admin/marketplace/license-issued`. */
    callback_url: text('callback_url'),
    provider: text('provider').$type<PaymentProviderId>().notNull(),
    provider_session_id: text('provider_session_id'),
    /** Where the customer pays (the provider's hosted page); null until the provider answered. */
    url: text('url'),
    /** `expired` is stored only when the provider could not create its session; an open one past expires_at reads as expired. */
    status: text('status').$type<CheckoutStatus>().notNull(),
    /** Price when the session was created, in euro cents. */
    amount_cents: integer('amount_cents').notNull(),
    currency: text('currency').notNull(),
    license_id: text('license_id'),
    expires_at: ts('expires_at').notNull(),
    paid_at: ts('paid_at'),
    ...timestamps,
  },
  (t) => [uniqueIndex('marketplace_checkout_sessions_provider_idx').on(t.provider, t.provider_session_id)],
);

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

export type RevocationKind = 'version' | 'item' | 'key';
export type RevocationSeverity = 'critical' | 'warning';

/**
 * The revocation list, one row per entry, append-only: shops fetch all of it signed
 * (GET /store/marketplace/revocations) and the highest `sequence` is the list's sequence number.
 */
export const marketplaceRevocations = pgTable(
  'marketplace_revocations',
  {
    id: idColumn(),
    /** 1, 2, 3…: assigned under a table lock, so the list's sequence never repeats or goes back. */
    sequence: integer('sequence').notNull(),
    kind: text('kind').$type<RevocationKind>().notNull(),
    /** The item (`version` and `item` entries). */
    marketplace_id: text('marketplace_id'),
    version: text('version'),
    key_id: text('key_id'),
    severity: text('severity').$type<RevocationSeverity>().notNull(),
    reason: text('reason').notNull(),
    /** `operator` or the vendor's id. */
    revoked_by: text('revoked_by').notNull(),
    created_at: ts('created_at').notNull(),
  },
  (t) => [uniqueIndex('marketplace_revocations_sequence_idx').on(t.sequence)],
);
