import { index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { idColumn, metadata, timestamps } from '../../platform/db/columns.ts';

/** A product's gallery, in `rank` order; variants show a subset of it (product_variant_images). */
export const productImages = pgTable(
  'product_images',
  {
    id: idColumn(),
    product_id: text('product_id').notNull(),
    url: text('url').notNull(),
    rank: integer('rank').notNull().default(0),
    ...metadata,
    ...timestamps,
  },
  (t) => [index('product_images_product_idx').on(t.product_id, t.rank)],
);

export const productVariantImages = pgTable(
  'product_variant_images',
  {
    variant_id: text('variant_id').notNull(),
    image_id: text('image_id').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.variant_id, t.image_id] }),
    index('product_variant_images_image_idx').on(t.image_id),
  ],
);
