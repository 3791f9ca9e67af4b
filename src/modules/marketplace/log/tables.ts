import { integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts } from '../../../platform/db/columns.ts';

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
