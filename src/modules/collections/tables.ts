import { sql } from 'drizzle-orm';
import { pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { idColumn, metadata, softDelete, timestamps } from '../../platform/db/columns.ts';

/** Medusa's product collections; a product belongs to at most one (`products.collection_id`). */
export const productCollections = pgTable(
  'product_collections',
  {
    id: idColumn(),
    title: text('title').notNull(),
    handle: text('handle').notNull(),
    external_id: text('external_id'),
    ...metadata,
    ...timestamps,
    ...softDelete,
  },
  (t) => [uniqueIndex('product_collections_handle_live_idx').on(t.handle).where(sql`deleted_at is null`)],
);
