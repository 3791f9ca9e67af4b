import { sql } from 'drizzle-orm';
import { boolean, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { idColumn, metadata, timestamps } from '../../platform/db/columns.ts';

export interface StoreCurrency {
  currency_code: string;
  is_default: boolean;
  is_tax_inclusive: boolean;
}

/**
 * The shop's own settings, Medusa's store: one row (the `singleton` index keeps it one), made
 * on the first read. Defaults point at regions and sales channels by id and are checked on write.
 */
export const stores = pgTable(
  'stores',
  {
    id: idColumn(),
    singleton: boolean('singleton').notNull().default(true),
    name: text('name').notNull(),
    supported_currencies: jsonb('supported_currencies').$type<StoreCurrency[]>().notNull(),
    default_sales_channel_id: text('default_sales_channel_id'),
    default_region_id: text('default_region_id'),
    /** Kept as given until stock locations exist; then checked like the others. */
    default_location_id: text('default_location_id'),
    ...metadata,
    ...timestamps,
  },
  (t) => [uniqueIndex('stores_singleton_idx').on(t.singleton).where(sql`${t.singleton}`)],
);
