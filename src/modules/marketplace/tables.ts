import { sql } from 'drizzle-orm';
import {
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { idColumn, timestamps, ts } from '../../platform/db/columns.ts';
import type { PluginManifest } from '../../plugin-package/manifest.ts';

/** bytea as a Buffer on both drivers (PGlite hands back a Uint8Array, pg a Buffer). */
const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});

export type Billing = 'one_time' | 'monthly' | 'yearly';

/** `revoked`: was approved, then taken back (revocations.ts); like the others, out of the feed and downloads. */
export type ReviewStatus = 'in_review' | 'approved' | 'rejected' | 'revoked';
export interface ReviewCheck {
  name: 'manifest' | 'permissions' | 'size' | 'sql' | 'install';
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
    /** How a paid item is sold: once (a licence of 365 days), or as a subscription renewed each month or year. */
    billing: text('billing').$type<Billing>().notNull().default('one_time'),
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
    /** Staged rollout (catalog/rollout.ts): the share of shops (by a stable bucket of their instance id) offered this version. */
    rollout_percent: integer('rollout_percent').notNull().default(100),
    /** Set when the vendor or operator halted the rollout: offered to no shop until resumed. */
    rollout_halted_at: ts('rollout_halted_at'),
  },
  (t) => [
    uniqueIndex('marketplace_versions_item_version_idx').on(t.item_id, t.version_key),
    index('marketplace_versions_review_idx').on(t.published_at).where(sql`status = 'in_review'`),
  ],
);

/**
 * The transparency log (log/): one row per approved artifact, in the order it was appended. Rows
 * are never updated or deleted (a trigger refuses it): the Merkle tree over them only grows.
 */
export const marketplaceLogEntries = pgTable(
  'marketplace_log_entries',
  {
    leaf_index: integer('leaf_index').primaryKey(),
    version_id: text('version_id').notNull(),
    marketplace_id: text('marketplace_id').notNull(),
    version: text('version').notNull(),
    sha256: text('sha256').notNull(),
    key_id: text('key_id').notNull(),
    logged_at: ts('logged_at').notNull(),
  },
  (t) => [uniqueIndex('marketplace_log_entries_version_idx').on(t.version_id)],
);

/**
 * Crash-loop rollbacks reported by shops (catalog/crash-reports.ts): one row per version and
 * instance (the instance id only as a sha256), counted again on each report.
 */
export const marketplaceCrashReports = pgTable(
  'marketplace_crash_reports',
  {
    id: idColumn(),
    version_id: text('version_id').notNull(),
    instance_hash: text('instance_hash').notNull(),
    reason: text('reason').notNull(),
    rolled_back_to: text('rolled_back_to'),
    reports: integer('reports').notNull().default(1),
    first_reported_at: ts('first_reported_at').notNull(),
    last_reported_at: ts('last_reported_at').notNull(),
  },
  (t) => [uniqueIndex('marketplace_crash_reports_version_instance_idx').on(t.version_id, t.instance_hash)],
);

/** Shops that downloaded an item (ratings/): one row per item and instance (sha256 of its token). */
export const marketplaceInstalls = pgTable(
  'marketplace_installs',
  {
    item_id: text('item_id').notNull(),
    instance_hash: text('instance_hash').notNull(),
    version: text('version').notNull(),
    first_at: ts('first_at').notNull(),
    /** Active installs are those downloaded in the last 90 days. */
    last_at: ts('last_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.item_id, t.instance_hash] })],
);

/** A shop's rating and review of an item it installed: one per item and instance, editable. */
export const marketplaceReviews = pgTable(
  'marketplace_reviews',
  {
    id: idColumn(),
    item_id: text('item_id').notNull(),
    instance_hash: text('instance_hash').notNull(),
    rating: integer('rating').notNull(),
    body: text('body').notNull().default(''),
    version: text('version'),
    reply: text('reply'),
    replied_at: ts('replied_at'),
    /** The operator hid it (abusive): out of the averages and the item page. */
    hidden_at: ts('hidden_at'),
    hidden_reason: text('hidden_reason'),
    ...timestamps,
  },
  (t) => [uniqueIndex('marketplace_reviews_item_instance_idx').on(t.item_id, t.instance_hash)],
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
    /** The item's billing when the session was created: a recurring one opens a subscription. */
    billing: text('billing').$type<Billing>().notNull().default('one_time'),
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

export type SubscriptionStatus = 'active' | 'past_due' | 'canceled';

/**
 * A recurring licence (sales/subscriptions.ts): the payment provider's subscription behind it.
 * Each paid renewal moves the licence's expires_at to the new period's end; a failed one leaves it
 * until the current period ends.
 */
export const marketplaceSubscriptions = pgTable(
  'marketplace_subscriptions',
  {
    /** `msub_…`. */
    id: idColumn(),
    license_id: text('license_id').notNull(),
    marketplace_id: text('marketplace_id').notNull(),
    instance_id: text('instance_id').notNull(),
    billing: text('billing').$type<Exclude<Billing, 'one_time'>>().notNull(),
    provider: text('provider').$type<PaymentProviderId>().notNull(),
    /** Stripe's `sub_…`. */
    provider_subscription_id: text('provider_subscription_id').notNull(),
    status: text('status').$type<SubscriptionStatus>().notNull(),
    current_period_end: ts('current_period_end').notNull(),
    /** Cancelled by the shop, the vendor or the operator: runs to the period's end, then stops renewing. */
    cancel_at_period_end: boolean('cancel_at_period_end').notNull().default(false),
    canceled_at: ts('canceled_at'),
    /** `shop`, `operator`, a vendor id, or `provider` (the provider ended it, e.g. after failed renewals). */
    canceled_by: text('canceled_by'),
    last_payment_failed_at: ts('last_payment_failed_at'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('marketplace_subscriptions_provider_idx').on(t.provider, t.provider_subscription_id),
    uniqueIndex('marketplace_subscriptions_license_idx').on(t.license_id),
    index('marketplace_subscriptions_item_idx').on(t.marketplace_id, t.id),
  ],
);

export type SaleKind = 'sale' | 'refund';
/**
 * `pending`: owed to the vendor; `transferring`: claimed by a payout run, the transfer asked for
 * (a run after a crash asks again with the same idempotency key); `paid`; `none`: nothing to move
 * (no vendor, no payout account's share, or a refund of a sale never paid out); `canceled`: a sale
 * refunded before it was paid out.
 */
export type PayoutStatus = 'pending' | 'transferring' | 'paid' | 'none' | 'canceled';

/**
 * The sales ledger (payouts/): one row per sale (a paid checkout, a paid renewal) and per refund,
 * each split into the marketplace's commission and the vendor's share at the vendor's rate of
 * that moment. Rows are written once; only their payout columns move.
 */
export const marketplaceSales = pgTable(
  'marketplace_sales',
  {
    /** `msale_…`: also the transfer's idempotency key, so one sale is never paid out twice. */
    id: idColumn(),
    kind: text('kind').$type<SaleKind>().notNull(),
    /** What made it, unique: the checkout session id, the provider's invoice id, or `refund:<sale id>`. */
    source_id: text('source_id').notNull(),
    /** A refund's sale. */
    refund_of: text('refund_of'),
    marketplace_id: text('marketplace_id').notNull(),
    /** The vendor owning the item's namespace at the time; null for the operator's own items. */
    vendor_id: text('vendor_id'),
    license_id: text('license_id'),
    provider: text('provider').$type<PaymentProviderId>().notNull(),
    /** The provider's payment (Stripe's `pi_…`) when known: what a refund refunds. */
    payment_ref: text('payment_ref'),
    /** Positive for both kinds; the kind says which way the money went. */
    amount_cents: integer('amount_cents').notNull(),
    commission_cents: integer('commission_cents').notNull(),
    vendor_cents: integer('vendor_cents').notNull(),
    currency: text('currency').notNull(),
    payout_status: text('payout_status').$type<PayoutStatus>().notNull(),
    /** Stripe's `tr_…` (a sale) or `trr_…` (a refund's reversal). */
    transfer_id: text('transfer_id'),
    paid_out_at: ts('paid_out_at'),
    payout_error: text('payout_error'),
    created_at: ts('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('marketplace_sales_source_idx').on(t.source_id),
    index('marketplace_sales_vendor_idx').on(t.vendor_id, t.id),
    index('marketplace_sales_payout_idx').on(t.id).where(sql`payout_status in ('pending', 'transferring')`),
  ],
);

/**
 * The scheduled payout runs (payouts/payout-job.ts), one row per period (its start, e.g. the day):
 * the instance holding the run and until when (a lease it renews while it works), and what it did.
 * A run whose instance died (`finished_at` null, lease run out) is taken over by the next tick of
 * any instance; the sales' own payout states make the work itself resumable.
 */
export const marketplacePayoutRuns = pgTable('marketplace_payout_runs', {
  period_start: ts('period_start').primaryKey(),
  owner: text('owner').notNull(),
  lease_until: ts('lease_until').notNull(),
  started_at: ts('started_at').notNull(),
  finished_at: ts('finished_at'),
  /** How many times a run of this period was started (more than one: taken over after a crash). */
  attempts: integer('attempts').notNull().default(1),
  transferred: integer('transferred').notNull().default(0),
  reversed: integer('reversed').notNull().default(0),
  waiting: integer('waiting').notNull().default(0),
});
