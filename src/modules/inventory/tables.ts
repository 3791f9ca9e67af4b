import { sql } from 'drizzle-orm';
import { check, doublePrecision, index, boolean, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { idColumn, metadata, softDelete, timestamps, ts } from '../../platform/db/columns.ts';

/** A stock-kept thing, apart from what is sold: a variant sells one or more of them. */
export const inventoryItems = pgTable(
  'inventory_items',
  {
    id: idColumn(),
    sku: text('sku'),
    title: text('title'),
    description: text('description'),
    thumbnail: text('thumbnail'),
    origin_country: text('origin_country'),
    hs_code: text('hs_code'),
    mid_code: text('mid_code'),
    material: text('material'),
    weight: doublePrecision('weight'),
    length: doublePrecision('length'),
    height: doublePrecision('height'),
    width: doublePrecision('width'),
    requires_shipping: boolean('requires_shipping').notNull().default(true),
    ...metadata,
    ...timestamps,
    ...softDelete,
  },
  (t) => [uniqueIndex('inventory_items_sku_live_idx').on(t.sku).where(sql`deleted_at is null and sku is not null`)],
);

/**
 * An item's stock at one location. Available = stocked - reserved. Quantities may go below zero
 * only through a variant that allows backorders (the store's decrement is guarded elsewhere).
 */
export const inventoryLevels = pgTable(
  'inventory_levels',
  {
    id: idColumn(),
    inventory_item_id: text('inventory_item_id').notNull(),
    location_id: text('location_id').notNull(),
    stocked_quantity: integer('stocked_quantity').notNull().default(0),
    reserved_quantity: integer('reserved_quantity').notNull().default(0),
    incoming_quantity: integer('incoming_quantity').notNull().default(0),
    ...metadata,
    ...timestamps,
  },
  (t) => [
    uniqueIndex('inventory_levels_item_location_idx').on(t.inventory_item_id, t.location_id),
    index('inventory_levels_location_idx').on(t.location_id),
    check('inventory_levels_reserved_check', sql`${t.reserved_quantity} >= 0`),
    check('inventory_levels_incoming_check', sql`${t.incoming_quantity} >= 0`),
  ],
);

/** A variant needs `required_quantity` of each linked item per unit sold (a kit: several items). */
export const variantInventoryItems = pgTable(
  'product_variant_inventory_items',
  {
    id: idColumn(),
    variant_id: text('variant_id').notNull(),
    inventory_item_id: text('inventory_item_id').notNull(),
    required_quantity: integer('required_quantity').notNull().default(1),
    created_at: ts('created_at').notNull(),
    updated_at: ts('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('pvii_variant_item_idx').on(t.variant_id, t.inventory_item_id),
    index('pvii_item_idx').on(t.inventory_item_id),
    check('pvii_required_check', sql`${t.required_quantity} >= 1`),
  ],
);

/**
 * The shop's default stock location (one row at most): where a new variant's stock goes, and
 * what a shop without locations gets on its first stock-managed variant.
 */
export const inventoryDefaults = pgTable(
  'inventory_defaults',
  {
    singleton: boolean('singleton').primaryKey().default(true),
    location_id: text('location_id').notNull(),
  },
  (t) => [check('inventory_defaults_singleton_check', sql`${t.singleton}`)],
);

/**
 * Stock held for an order line (or by hand) at one location: it counts in the level's
 * `reserved_quantity` until released (deleted) or fulfilled.
 */
export const reservationItems = pgTable(
  'reservation_items',
  {
    id: idColumn(),
    inventory_item_id: text('inventory_item_id').notNull(),
    location_id: text('location_id').notNull(),
    line_item_id: text('line_item_id'),
    quantity: integer('quantity').notNull(),
    allow_backorder: boolean('allow_backorder').notNull().default(false),
    description: text('description'),
    external_id: text('external_id'),
    created_by: text('created_by'),
    ...metadata,
    ...timestamps,
  },
  (t) => [
    index('reservation_items_item_location_idx').on(t.inventory_item_id, t.location_id),
    index('reservation_items_location_idx').on(t.location_id),
    index('reservation_items_line_idx').on(t.line_item_id),
    check('reservation_items_quantity_check', sql`${t.quantity} > 0`),
  ],
);
