import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { idColumn, ts } from '../../platform/db/columns.ts';

export const notifications = pgTable(
  'notifications',
  {
    id: idColumn(),
    type: text('type').notNull(),
    title: text('title').notNull(),
    message: text('message').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    /** Set by callers that must notify once per fact (e.g. one "update available" per version). */
    dedupe_key: text('dedupe_key'),
    read_at: ts('read_at'),
    created_at: ts('created_at').notNull(),
  },
  (t) => [
    // The admin list: unread first, then newest first (the same expressions as its ORDER BY).
    index('notifications_listing_idx').on(sql`(${t.read_at} is null) desc`, t.created_at.desc(), t.id.desc()),
    // Nullable and unique: NULLs never collide, so only keyed notifications are deduplicated.
    uniqueIndex('notifications_dedupe_key_idx').on(t.dedupe_key),
  ],
);
