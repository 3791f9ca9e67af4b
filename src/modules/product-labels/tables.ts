import { sql } from 'drizzle-orm';
import { index, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { idColumn, metadata, softDelete, timestamps } from '../../platform/db/columns.ts';

/** A product has one type (`products.type_id`) and any number of tags; both are a `value`. */
const label = (name: string) =>
  pgTable(name, { id: idColumn(), value: text('value').notNull(), ...metadata, ...timestamps, ...softDelete }, (t) => [
    uniqueIndex(`${name}_value_live_idx`).on(t.value).where(sql`deleted_at is null`),
  ]);

export const productTypes = label('product_types');
export const productTags = label('product_tags');

export const productTagLinks = pgTable(
  'product_tag_links',
  {
    product_id: text('product_id').notNull(),
    tag_id: text('tag_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.product_id, t.tag_id] }), index('product_tag_links_tag_idx').on(t.tag_id)],
);
