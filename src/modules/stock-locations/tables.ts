import { index, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { idColumn, metadata, softDelete, timestamps, ts } from '../../platform/db/columns.ts';

/** A location's address, its own row as in Medusa (`address_id` on the location). */
export const stockLocationAddresses = pgTable('stock_location_addresses', {
  id: idColumn(),
  address_1: text('address_1').notNull(),
  address_2: text('address_2'),
  company: text('company'),
  city: text('city'),
  country_code: text('country_code').notNull(),
  phone: text('phone'),
  province: text('province'),
  postal_code: text('postal_code'),
  ...metadata,
  ...timestamps,
});

/** A warehouse, a shop, a supplier's shelf: where stock is kept and orders are fulfilled from. */
export const stockLocations = pgTable('stock_locations', {
  id: idColumn(),
  name: text('name').notNull(),
  address_id: text('address_id'),
  ...metadata,
  ...timestamps,
  ...softDelete,
});

/**
 * Which locations serve a sales channel. `rank` is the channel's own order of its locations (the
 * allocation strategy "by location order" walks it); a new link goes last.
 */
export const salesChannelStockLocations = pgTable(
  'sales_channel_stock_locations',
  {
    sales_channel_id: text('sales_channel_id').notNull(),
    stock_location_id: text('stock_location_id').notNull(),
    rank: integer('rank').notNull().default(0),
    created_at: ts('created_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.sales_channel_id, t.stock_location_id] }),
    index('scsl_location_idx').on(t.stock_location_id),
  ],
);

/**
 * Which fulfilment providers ship from a location (Medusa's stock location ↔ fulfilment provider
 * link). A location linked to none is served by every provider, as before links existed; once it
 * has links, its shipping options must use one of them.
 */
export const stockLocationFulfillmentProviders = pgTable(
  'stock_location_fulfillment_providers',
  {
    stock_location_id: text('stock_location_id').notNull(),
    provider_id: text('provider_id').notNull(),
    created_at: ts('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.stock_location_id, t.provider_id] })],
);
