import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The store's read model (see README.md "Store read path"): each store-visible product's JSON,
 * kept ready by refreshStoreDocuments (store-documents.ts) in the transaction of every write
 * that changes it. A product has a row here exactly while it is published and not deleted.
 */
export const storeDocuments = pgTable(
  'store_documents',
  {
    product_id: text('product_id').primaryKey(),
    handle: text('handle').notNull(),
    /** The product's sales channels, for reads by id, handle or search. */
    channel_ids: text('channel_ids').array().notNull(),
    /** The product's JSON up to the variants, compacted: `{"id":…,"variants":[`. */
    head: text('head').notNull(),
    /** Live variants in the document's order; their stock and `updated_at` are read live. */
    variant_ids: text('variant_ids').array().notNull(),
    /** Three static pieces per variant, around its stock and its `updated_at` (store-assembly.ts). */
    variant_parts: text('variant_parts').array().notNull(),
  },
  (t) => [index('store_documents_handle_idx').on(t.handle)],
);

/**
 * The store list's index: one row per visible product and channel, walked in product order; and
 * the store's `q` search, on the same narrow rows, so a broad term's matches need no join to know
 * they are visible (a check per match was most of a broad search's time at 100,000 products).
 */
export const storeListing = pgTable(
  'store_listing',
  {
    sales_channel_id: text('sales_channel_id').notNull(),
    product_id: text('product_id').notNull(),
    /** products/queries.ts SEARCH_TEXT of the product: what `q` matches, lower-cased. */
    search: text('search').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.sales_channel_id, t.product_id] }),
    index('store_listing_product_idx').on(t.product_id),
    index('store_listing_search_idx').using('gin', sql`${t.search} gin_trgm_ops`).with({ gin_pending_list_limit: 128 }),
  ],
);

/**
 * One row: the document shape the stored documents were built with. A start that finds another
 * shape (STORE_DOCUMENT_SHAPE changed, or the table is new) rebuilds every document.
 */
export const storeDocumentsState = pgTable('store_documents_state', {
  id: integer('id').primaryKey(),
  shape: integer('shape').notNull(),
});

/**
 * The store catalog's version (migration store_catalog_version): the sum of `v` moves with every
 * committed transaction that changes what the store shows, and with nothing else. Bumped at
 * commit by triggers, one shard per transaction (its id modulo the row count), so concurrent
 * checkouts seldom queue on one row. Read by the store answer cache on PostgreSQL (store-cache.ts).
 */
export const storeCatalogVersion = pgTable('store_catalog_version', {
  shard: integer('shard').primaryKey(),
  v: bigint('v', { mode: 'number' }).notNull(),
});

/**
 * PostgreSQL: the instances that answer store reads from memory without reading the catalog's
 * version, each until `until` (catalog-leases.ts). A write's answer waits until every holder
 * listed here acknowledged it or its time ran out. Rows of instances that stopped go by themselves.
 */
export const storeCatalogLeases = pgTable('store_catalog_leases', {
  holder: text('holder').primaryKey(),
  until: timestamp('until', { withTimezone: true, mode: 'string' }).notNull(),
});
