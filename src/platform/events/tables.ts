import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { idColumn, ts } from '../db/columns.ts';

/**
 * Transactional outbox: a row per event, written in the same transaction as the change.
 * The dispatcher (webhooks issue) claims undispatched rows with SKIP LOCKED; dispatched rows are
 * deleted after OUTBOX_RETENTION_DAYS (outbox-retention.ts): what consumes them keeps its own copy.
 */
export const outbox = pgTable(
  'outbox',
  {
    id: idColumn(),
    name: text('name').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    created_at: ts('created_at').notNull(),
    dispatched_at: ts('dispatched_at'),
    /** Lease of the dispatcher that claimed it; an expired lease (crash) makes the row claimable again. */
    locked_until: ts('locked_until'),
    attempts: integer('attempts').notNull().default(0),
  },
  (t) => [
    index('outbox_pending_idx').on(t.id).where(sql`dispatched_at is null`),
    // The retention job (outbox-retention.ts) deletes dispatched events oldest first, a range of this.
    index('outbox_dispatched_idx').on(t.dispatched_at).where(sql`dispatched_at is not null`),
  ],
);
