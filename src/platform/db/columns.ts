import { jsonb, text, timestamp } from 'drizzle-orm/pg-core';

/** Shared column helpers so every table spells timestamps and metadata the same way. */
export const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const timestamps = {
  created_at: ts('created_at').notNull(),
  updated_at: ts('updated_at').notNull(),
};

export const softDelete = { deleted_at: ts('deleted_at') };

export const metadata = { metadata: jsonb('metadata').$type<Record<string, unknown> | null>() };

export const idColumn = () => text('id').primaryKey();
