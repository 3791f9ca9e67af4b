import { integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { idColumn, ts } from '../../../platform/db/columns.ts';

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
