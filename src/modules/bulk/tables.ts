import { index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { idColumn, ts } from '../../platform/db/columns.ts';

/**
 * A CSV uploaded for an import and not yet taken by one (Medusa's two-step `createImport`: the
 * file goes to `POST /admin/uploads`, its id then to `POST /admin/products/imports`). Kept here,
 * not in the public file storage: a catalog with its costs is not a picture to serve. Taken
 * (deleted) by the import it starts; one never taken goes with the job files' retention.
 */
export const importUploads = pgTable(
  'import_uploads',
  {
    id: idColumn(),
    filename: text('filename').notNull(),
    content: text('content').notNull(),
    size: integer('size').notNull(),
    created_by: text('created_by'),
    created_at: ts('created_at').notNull(),
  },
  (t) => [index('import_uploads_created_idx').on(t.created_at)],
);
