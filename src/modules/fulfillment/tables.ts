import { sql } from 'drizzle-orm';
import { bigint, index, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { idColumn, metadata, softDelete, timestamps } from '../../platform/db/columns.ts';

/**
 * What kind of shipping a product needs (default, digital, heavy): a cart needs a shipping method
 * for every profile its items carry. Products point at one (`products.shipping_profile_id`; none
 * means the default profile, `sp_default`).
 */
export const shippingProfiles = pgTable('shipping_profiles', {
  id: idColumn(),
  name: text('name').notNull(),
  type: text('type').notNull(),
  ...metadata,
  ...timestamps,
  ...softDelete,
});

/** A way a stock location hands goods over: `shipping` (it sends them) or `pickup` (the shopper collects). */
export const fulfillmentSets = pgTable(
  'fulfillment_sets',
  {
    id: idColumn(),
    name: text('name').notNull(),
    type: text('type').$type<'shipping' | 'pickup'>().notNull(),
    location_id: text('location_id').notNull(),
    ...metadata,
    ...timestamps,
    ...softDelete,
  },
  (t) => [index('fulfillment_sets_location_idx').on(t.location_id).where(sql`deleted_at is null`)],
);

/**
 * Where a set serves: the geo zones under it. `region_id` marks the zone made for a region's
 * flat options (the spec's `POST /admin/shipping-options { region_id, amount }`): it serves every
 * cart of that region, whatever its countries become.
 */
export const serviceZones = pgTable(
  'service_zones',
  {
    id: idColumn(),
    name: text('name').notNull(),
    fulfillment_set_id: text('fulfillment_set_id').notNull(),
    region_id: text('region_id'),
    ...metadata,
    ...timestamps,
    ...softDelete,
  },
  (t) => [index('service_zones_set_idx').on(t.fulfillment_set_id).where(sql`deleted_at is null`)],
);

/** A country, a province of it, a city of that, or a postal code there (Medusa's four geo zone types). */
export const geoZones = pgTable(
  'geo_zones',
  {
    id: idColumn(),
    service_zone_id: text('service_zone_id').notNull(),
    type: text('type').$type<'country' | 'province' | 'city' | 'zip'>().notNull(),
    country_code: text('country_code').notNull(),
    province_code: text('province_code'),
    city: text('city'),
    postal_expression: jsonb('postal_expression').$type<Record<string, unknown> | string | null>(),
    ...metadata,
    ...timestamps,
  },
  (t) => [index('geo_zones_zone_idx').on(t.service_zone_id), index('geo_zones_country_idx').on(t.country_code)],
);

/** A condition on a price: `item_total gte 5000` (Medusa's price rules; amounts in minor units). */
export interface PriceRule {
  attribute: 'item_total';
  operator: 'gt' | 'gte' | 'lt' | 'lte' | 'eq';
  value: number;
}

/**
 * A shipping option's price in a currency or for a region, maybe with conditions on the cart.
 * The price a cart pays: its region's price over its currency's, then the one with the most rules
 * that all hold, then the lowest.
 */
export const shippingOptionPrices = pgTable(
  'shipping_option_prices',
  {
    id: idColumn(),
    shipping_option_id: text('shipping_option_id').notNull(),
    currency_code: text('currency_code'),
    region_id: text('region_id'),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    rules: jsonb('rules').$type<PriceRule[]>().notNull().default(sql`'[]'::jsonb`),
    ...timestamps,
  },
  (t) => [index('shipping_option_prices_option_idx').on(t.shipping_option_id)],
);

/** An option's rules: `enabled_in_store` and `is_return` ("true"/"false"), as Medusa stores them; `value` is JSON text. */
export const shippingOptionRules = pgTable(
  'shipping_option_rules',
  {
    id: idColumn(),
    shipping_option_id: text('shipping_option_id').notNull(),
    attribute: text('attribute').notNull(),
    operator: text('operator').notNull(),
    value: text('value').notNull(),
    ...timestamps,
  },
  (t) => [index('shipping_option_rules_option_idx').on(t.shipping_option_id)],
);
