import { sql } from 'drizzle-orm';
import { boolean, customType, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { idColumn, timestamps, ts } from '../../platform/db/columns.ts';
import type { PluginManifest } from '../../plugin-package/manifest.ts';

/** bytea as a Buffer on both drivers (PGlite hands back a Uint8Array, pg a Buffer). */
const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});

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
  },
  (t) => [uniqueIndex('marketplace_versions_item_version_idx').on(t.item_id, t.version_key)],
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
  },
  // At most one active key: concurrent first starts race on this index, and one key wins.
  (t) => [uniqueIndex('marketplace_signing_keys_active_idx').on(t.active).where(sql`active`)],
);
