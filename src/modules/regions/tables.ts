import { boolean, index, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { idColumn, metadata, softDelete, timestamps } from '../../platform/db/columns.ts';

export const regions = pgTable('regions', {
  id: idColumn(),
  name: text('name').notNull(),
  currency_code: text('currency_code').notNull(),
  automatic_taxes: boolean('automatic_taxes').notNull().default(true),
  is_tax_inclusive: boolean('is_tax_inclusive').notNull().default(false),
  ...metadata,
  ...timestamps,
  ...softDelete,
});

/** The primary key on iso_2 is what guarantees a country belongs to at most one region. */
export const regionCountries = pgTable(
  'region_countries',
  {
    iso_2: text('iso_2').primaryKey(),
    region_id: text('region_id').notNull(),
  },
  (t) => [index('region_countries_region_idx').on(t.region_id)],
);

/**
 * The payment providers a region offers (Medusa's `region.payment_providers`). A region without
 * rows offers the built-in manual provider only; with rows, exactly those that are running.
 */
export const regionPaymentProviders = pgTable(
  'region_payment_providers',
  {
    region_id: text('region_id').notNull(),
    provider_id: text('provider_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.region_id, t.provider_id] })],
);
