import { sql } from 'drizzle-orm';
import { boolean, index, numeric, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { idColumn, metadata, softDelete, timestamps } from '../../platform/db/columns.ts';

/** A country, or a province of one (`parent_id` names the country's region), taxed by one provider. */
export const taxRegions = pgTable(
  'tax_regions',
  {
    id: idColumn(),
    country_code: text('country_code').notNull(),
    province_code: text('province_code'),
    parent_id: text('parent_id'),
    provider_id: text('provider_id'),
    ...metadata,
    created_by: text('created_by'),
    ...timestamps,
    ...softDelete,
  },
  (t) => [
    uniqueIndex('tax_regions_place_idx')
      .on(t.country_code, sql`coalesce(${t.province_code}, '')`)
      .where(sql`deleted_at is null`),
  ],
);

/** A rate of a tax region: its default (`is_default`), or one that overrides it for the products, types or shipping options of its rules. */
export const taxRates = pgTable(
  'tax_rates',
  {
    id: idColumn(),
    tax_region_id: text('tax_region_id').notNull(),
    name: text('name').notNull(),
    code: text('code').notNull(),
    /** Percent, exact (19 or 7.25); null is a rate of 0 that still names a code. */
    rate: numeric('rate'),
    is_default: boolean('is_default').notNull().default(false),
    /** A province's rate adds its country's (as US state plus federal taxes do). */
    is_combinable: boolean('is_combinable').notNull().default(false),
    ...metadata,
    created_by: text('created_by'),
    ...timestamps,
    ...softDelete,
  },
  (t) => [index('tax_rates_region_idx').on(t.tax_region_id).where(sql`deleted_at is null`)],
);

export const taxRateRules = pgTable(
  'tax_rate_rules',
  {
    id: idColumn(),
    tax_rate_id: text('tax_rate_id').notNull(),
    /** `product`, `product_type` or `shipping_option`. */
    reference: text('reference').notNull(),
    reference_id: text('reference_id').notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex('tax_rate_rules_ref_idx').on(t.tax_rate_id, t.reference, t.reference_id)],
);

/** Whether prices of a region or a currency include tax (Medusa's price preferences). */
export const pricePreferences = pgTable(
  'price_preferences',
  {
    id: idColumn(),
    /** `region_id` or `currency_code`. */
    attribute: text('attribute').notNull(),
    value: text('value').notNull(),
    is_tax_inclusive: boolean('is_tax_inclusive').notNull().default(false),
    ...timestamps,
    ...softDelete,
  },
  (t) => [uniqueIndex('price_preferences_attr_idx').on(t.attribute, t.value).where(sql`deleted_at is null`)],
);
