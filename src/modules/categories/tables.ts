import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { idColumn, metadata, softDelete, timestamps } from '../../platform/db/columns.ts';

/**
 * Medusa's product categories: a tree by `parent_category_id`, ordered among siblings by
 * `rank` (0, 1, 2… kept dense by the service). Products link through `product_categories`
 * (products/tables.ts). The store sees only categories that are active and not internal.
 */
export const categories = pgTable(
  'categories',
  {
    id: idColumn(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    handle: text('handle').notNull(),
    is_active: boolean('is_active').notNull().default(false),
    is_internal: boolean('is_internal').notNull().default(false),
    rank: integer('rank').notNull().default(0),
    parent_category_id: text('parent_category_id'),
    external_id: text('external_id'),
    ...metadata,
    ...timestamps,
    ...softDelete,
  },
  (t) => [
    uniqueIndex('categories_handle_live_idx').on(t.handle).where(sql`deleted_at is null`),
    index('categories_parent_idx').on(t.parent_category_id, t.rank),
  ],
);
