import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { idColumn, metadata, softDelete, timestamps, ts } from '../../platform/db/columns.ts';

/** Shipping and customs attributes, on products and (overriding them) on variants, as in Medusa. */
const physical = {
  weight: doublePrecision('weight'),
  length: doublePrecision('length'),
  height: doublePrecision('height'),
  width: doublePrecision('width'),
  hs_code: text('hs_code'),
  mid_code: text('mid_code'),
  origin_country: text('origin_country'),
  material: text('material'),
};

export const products = pgTable(
  'products',
  {
    id: idColumn(),
    title: text('title').notNull(),
    subtitle: text('subtitle'),
    handle: text('handle').notNull(),
    description: text('description'),
    status: text('status').$type<'draft' | 'proposed' | 'published' | 'rejected'>().notNull(),
    thumbnail: text('thumbnail'),
    is_giftcard: boolean('is_giftcard').notNull().default(false),
    discountable: boolean('discountable').notNull().default(true),
    collection_id: text('collection_id'),
    type_id: text('type_id'),
    external_id: text('external_id'),
    /** What shipping it needs (fulfillment/tables.ts); null: the default profile. */
    shipping_profile_id: text('shipping_profile_id'),
    ...physical,
    ...metadata,
    ...timestamps,
    ...softDelete,
  },
  (t) => [
    index('products_type_idx').on(t.type_id),
    uniqueIndex('products_handle_live_idx').on(t.handle).where(sql`deleted_at is null`),
    index('products_collection_idx').on(t.collection_id),
    // The search expression; queries must repeat it exactly (see products/queries.ts SEARCH_TEXT).
    // A small pending list (128 kB, not 4 MB): right after a bulk import a large one makes the
    // planner cost this index above a sequential scan, and searches slow; inserts stay batched.
    index('products_search_trgm_idx')
      .using(
        'gin',
        sql`(lower(${t.title} || ' ' || ${t.handle} || ' ' || coalesce(${t.description}, ''))) gin_trgm_ops`,
      )
      .with({ gin_pending_list_limit: 128 }),
  ],
);

export const productCategories = pgTable(
  'product_categories',
  {
    product_id: text('product_id').notNull(),
    category_id: text('category_id').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.product_id, t.category_id] }),
    index('product_categories_category_idx').on(t.category_id),
  ],
);

export const productSalesChannels = pgTable(
  'product_sales_channels',
  {
    product_id: text('product_id').notNull(),
    sales_channel_id: text('sales_channel_id').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.product_id, t.sales_channel_id] }),
    index('psc_channel_idx').on(t.sales_channel_id, t.product_id),
  ],
);

export const productOptions = pgTable(
  'product_options',
  {
    id: idColumn(),
    product_id: text('product_id').notNull(),
    title: text('title').notNull(),
    values: jsonb('values').$type<string[]>().notNull(),
    rank: integer('rank').notNull().default(0),
  },
  (t) => [index('product_options_product_idx').on(t.product_id)],
);

export const productVariants = pgTable(
  'product_variants',
  {
    id: idColumn(),
    product_id: text('product_id').notNull(),
    title: text('title').notNull(),
    sku: text('sku'),
    manage_inventory: boolean('manage_inventory').notNull().default(true),
    allow_backorder: boolean('allow_backorder').notNull().default(false),
    inventory_quantity: integer('inventory_quantity').notNull().default(0),
    options: jsonb('options').$type<Record<string, string>>(),
    variant_rank: integer('variant_rank').notNull().default(0),
    barcode: text('barcode'),
    ean: text('ean'),
    upc: text('upc'),
    thumbnail: text('thumbnail'),
    ...physical,
    ...metadata,
    ...timestamps,
    ...softDelete,
  },
  (t) => [
    index('product_variants_product_idx').on(t.product_id),
    uniqueIndex('product_variants_sku_live_idx').on(t.sku).where(sql`deleted_at is null and sku is not null`),
    // The dashboard's low stock (dashboard/queries.ts, threshold 5): only the few variants that
    // can run out and are at or under it, so 200,000 variants are not read to find ten.
    index('product_variants_low_stock_idx')
      .on(t.inventory_quantity, t.id)
      .where(sql`deleted_at is null and manage_inventory and not allow_backorder and inventory_quantity <= 5`),
  ],
);

/**
 * Amounts are integers in the currency's minor unit. One price per variant and currency without a
 * quantity range (the catalog's price); more may carry `min_quantity`/`max_quantity` (Medusa's
 * quantity tiers), which price cart lines of those quantities (carts/line-prices.ts).
 */
export const prices = pgTable(
  'prices',
  {
    id: idColumn(),
    variant_id: text('variant_id').notNull(),
    currency_code: text('currency_code').notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    min_quantity: integer('min_quantity'),
    max_quantity: integer('max_quantity'),
    created_at: ts('created_at').notNull(),
    updated_at: ts('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('prices_variant_currency_idx')
      .on(t.variant_id, t.currency_code)
      .where(sql`min_quantity is null and max_quantity is null`),
    index('prices_variant_tiers_idx').on(t.variant_id, t.currency_code, t.min_quantity),
  ],
);

/**
 * How many store-visible products (published, not deleted) each sales channel has, kept exact
 * by triggers (migration products_channel_count_triggers) whichever module writes products or
 * their channel links. The store list reads its total here instead of counting the catalog on
 * every request.
 */
export const productChannelCounts = pgTable('product_channel_counts', {
  sales_channel_id: text('sales_channel_id').primaryKey(),
  visible_products: integer('visible_products').notNull().default(0),
});
