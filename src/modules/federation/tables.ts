import { index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { ts } from '../../platform/db/columns.ts';

/**
 * The per-instance secret behind the instance token sent to marketplaces (instance-id.ts):
 * one row, created on first use. Kept out of settings so no admin screen ever shows it.
 */
export const instanceIdentity = pgTable('instance_identity', {
  id: integer('id').primaryKey(),
  /** 32 random bytes, hex, encrypted with ENCRYPTION_KEY. */
  secret_encrypted: text('secret_encrypted').notNull(),
  created_at: ts('created_at').notNull(),
});

/**
 * Signed marketplace callbacks already accepted (sha256 of the X-Service-Signature), so a
 * captured delivery cannot be replayed. Rows outlive the 5-minute signature window, then go.
 */
export const federationSeenDeliveries = pgTable(
  'federation_seen_deliveries',
  {
    signature_hash: text('signature_hash').primaryKey(),
    delivery_id: text('delivery_id'),
    expires_at: ts('expires_at').notNull(),
  },
  (t) => [index('federation_seen_deliveries_expires_idx').on(t.expires_at)],
);

/** The last successful license verification of a paid plugin: what the 7-day offline grace rests on. */
export const pluginLicenseChecks = pgTable('plugin_license_checks', {
  plugin_id: text('plugin_id').primaryKey(),
  last_verified_at: ts('last_verified_at').notNull(),
  /** The marketplace's verify answer (valid, expires_at, tier, renewed_at, token: offline proof). */
  last_result: jsonb('last_result').$type<Record<string, unknown>>().notNull(),
  /** last_verified_at + 7 days: while the marketplace is unreachable the plugin runs until then. */
  grace_until: ts('grace_until').notNull(),
});

/** The last revocation list accepted from each marketplace, and the last one refused (why, when). */
export const federationRevocationLists = pgTable('federation_revocation_lists', {
  marketplace_url: text('marketplace_url').primaryKey(),
  /** A list below this sequence is an old one replayed: refused. */
  sequence: integer('sequence').notNull(),
  fetched_at: ts('fetched_at'),
  /** Signing keys the accepted list revoked: an artifact they signed is refused. */
  revoked_keys: jsonb('revoked_keys').$type<string[]>().notNull().default([]),
  refused_at: ts('refused_at'),
  refused_reason: text('refused_reason'),
});

/**
 * The largest signed tree head of each marketplace's transparency log this shop has verified
 * (federation/log-check.ts): every newer head must be consistent with it, or the log was rewritten.
 */
export const federationLogHeads = pgTable('federation_log_heads', {
  marketplace_url: text('marketplace_url').primaryKey(),
  tree_size: integer('tree_size').notNull(),
  root_hash: text('root_hash').notNull(),
  timestamp: text('timestamp').notNull(),
  key_id: text('key_id').notNull(),
  signature: text('signature').notNull(),
  checked_at: ts('checked_at'),
  /** The last head or proof refused (a forked or rewritten log), and why. */
  refused_at: ts('refused_at'),
  refused_reason: text('refused_reason'),
});

/**
 * Every artifact the marketplace served this shop for installing, with where the log proved it
 * (`leaf_index`, `tree_size`), or why it was refused: what `emporium marketplace audit` checks.
 */
export const federationServedArtifacts = pgTable(
  'federation_served_artifacts',
  {
    marketplace_url: text('marketplace_url').notNull(),
    marketplace_id: text('marketplace_id').notNull(),
    version: text('version').notNull(),
    sha256: text('sha256').notNull(),
    leaf_index: integer('leaf_index'),
    tree_size: integer('tree_size'),
    refused_reason: text('refused_reason'),
    received_at: ts('received_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.marketplace_url, t.marketplace_id, t.version, t.sha256] })],
);
