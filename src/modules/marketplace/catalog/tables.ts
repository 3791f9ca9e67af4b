import { sql } from 'drizzle-orm';
import { boolean, customType, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { idColumn, timestamps, ts } from '../../../platform/db/columns.ts';
import type { PluginManifest } from '../../../plugin-package/manifest.ts';

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

/** The package bytes, apart from the version rows so that listing versions never reads them. */
export const marketplaceArtifacts = pgTable('marketplace_artifacts', {
  version_id: text('version_id')
    .primaryKey()
    .references(() => marketplaceVersions.id, { onDelete: 'cascade' }),
  bytes: bytea('bytes').notNull(),
});

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
