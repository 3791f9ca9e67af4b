import { bigint, pgTable, text } from 'drizzle-orm/pg-core';
import { idColumn, ts } from '../../platform/db/columns.ts';

/** Files uploaded by the admin; the bytes are in the configured storage under `key`. */
export const uploadedFiles = pgTable('uploaded_files', {
  id: idColumn(),
  key: text('key').notNull().unique(),
  filename: text('filename').notNull(),
  mime_type: text('mime_type').notNull(),
  size: bigint('size', { mode: 'number' }).notNull(),
  created_at: ts('created_at').notNull(),
});
