import { pgTable, text } from 'drizzle-orm/pg-core';
import { ts } from '../../platform/db/columns.ts';

/** Instance-wide key/value settings; the key is the identity, so a write is an upsert. */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updated_at: ts('updated_at').notNull(),
  /** The actor (user or secret key id) of the last write; null when written by the system. */
  updated_by: text('updated_by'),
});
