import { customType, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { idColumn, timestamps, ts } from '../../platform/db/columns.ts';
import type { PluginManifest } from '../../plugin-package/manifest.ts';
import type { StoredRights } from '../../plugin-package/permissions.ts';

export type PluginStatus = 'installing' | 'installed' | 'failed' | 'disabled' | 'updating';
export type PluginSource = 'local' | 'federation';

/** bytea as a Buffer on both drivers (PGlite hands back a Uint8Array, pg a Buffer). */
const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});

/** An installed (or installing, failed, …) plugin of this shop. DELETE removes the row; its schema stays. */
/** An entry of the marketplace's signed revocation list that names this plugin's installed version. */
export interface PluginRevocation {
  severity: 'critical' | 'warning';
  reason: string;
  revoked_at: string;
  /** The list entry's sequence number: an entry is applied once. */
  sequence: number;
}

/** What a rollback restores: the code, rights and configuration of the version before an update. */
export interface PreviousRelease {
  version: string;
  artifact_sha256: string | null;
  manifest: PluginManifest | null;
  admin_sha256: string | null;
  granted_permissions: StoredRights | null;
  config: Record<string, unknown>;
  /** When the update to the current version finished. */
  replaced_at: string;
}

export interface PluginRollback {
  from: string;
  to: string;
  reason: string;
  at: string;
}

export const plugins = pgTable(
  'plugins',
  {
    id: idColumn(),
    /** The manifest's `id`: names the plugin's schema (`plugin_<id>`) and its route mount. */
    manifest_id: text('manifest_id').notNull(),
    /** `@<vendor>/<manifest id>`. */
    marketplace_id: text('marketplace_id').notNull(),
    vendor: text('vendor').notNull(),
    /** The running version (while installing: the requested one). */
    version: text('version').notNull(),
    /** While `updating`: the version being installed; the old one keeps running until it loads. */
    target_version: text('target_version'),
    status: text('status').$type<PluginStatus>().notNull(),
    error: text('error'),
    source: text('source').$type<PluginSource>(),
    /** AES-256-GCM blob (platform/crypto.ts), null for free items. */
    license_key: text('license_key'),
    /** Operator configuration; values of secret fields are encrypted blobs. */
    config: jsonb('config').$type<Record<string, unknown>>().notNull().default({}),
    /** manifest.json of the running version; null until the first download was verified. */
    manifest: jsonb('manifest').$type<PluginManifest>(),
    /** Key into plugin_artifacts of the running version. */
    artifact_sha256: text('artifact_sha256'),
    /** sha256 of the admin entry, so the admin panel can pin what it loads. */
    admin_sha256: text('admin_sha256'),
    /** The rights the operator accepted (at install, or by approving an update); null until installed. */
    granted_permissions: jsonb('granted_permissions').$type<StoredRights>(),
    /** A verified update that asks for more rights than granted waits here for POST …/approve. */
    pending_version: text('pending_version'),
    pending_permissions: jsonb('pending_permissions').$type<StoredRights>(),
    /** The marketplace revoked the installed version (federation/revocations.ts): shown with the plugin. */
    revocation: jsonb('revocation').$type<PluginRevocation>(),
    /** The version an update replaced, kept for a crash-loop rollback (sandbox/rollback.ts) until the next update. */
    previous_release: jsonb('previous_release').$type<PreviousRelease>(),
    /** The last crash-loop rollback (from, to, reason, at): shown with the plugin until the next update. */
    rollback: jsonb('rollback').$type<PluginRollback>(),
    /** Versions rolled back from: left out of the updates offered. */
    held_versions: jsonb('held_versions').$type<string[]>().notNull().default([]),
    /** Lease of the instance running this row's pipeline; an expired lease (crash) lets another resume it. */
    lease_until: ts('lease_until'),
    /** Pipeline runs of the current install or update; a row that keeps crashing the process gives up. */
    attempts: integer('attempts').notNull().default(0),
    installed_at: ts('installed_at'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('plugins_marketplace_id_idx').on(t.marketplace_id),
    // Two vendors' `@a/x` and `@b/x` would share a schema and a route mount: one at a time.
    uniqueIndex('plugins_manifest_id_idx').on(t.manifest_id),
    index('plugins_status_idx').on(t.status),
  ],
);

/** Verified package bytes by content hash: every instance loads plugins from here, not from its disk. */
export const pluginArtifacts = pgTable('plugin_artifacts', {
  sha256: text('sha256').primaryKey(),
  bytes: bytea('bytes').notNull(),
  size: integer('size').notNull(),
  created_at: ts('created_at').notNull(),
});

/**
 * Whose data each plugin schema holds: the vendor and manifest id that first claimed it. A schema
 * outlives its plugin's uninstall (the data stays for a reinstall), and its name comes from the
 * manifest id alone (cut and hashed when long), so another vendor's plugin with the same id, or
 * a long id whose cut name collides, must not be handed the schema and its role.
 */
export const pluginSchemas = pgTable('plugin_schemas', {
  schema_name: text('schema_name').primaryKey(),
  vendor: text('vendor').notNull(),
  manifest_id: text('manifest_id').notNull(),
});

/** Plugin migrations applied, per schema and file; never rolled back, kept across uninstall. */
export const pluginMigrations = pgTable(
  'plugin_migrations',
  {
    manifest_id: text('manifest_id').notNull(),
    schema_name: text('schema_name').notNull(),
    filename: text('filename').notNull(),
    checksum: text('checksum').notNull(),
    applied_at: ts('applied_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.schema_name, t.filename] })],
);
