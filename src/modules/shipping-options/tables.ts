import { sql } from 'drizzle-orm';
import { bigint, index, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { idColumn, metadata, softDelete, timestamps } from '../../platform/db/columns.ts';

/**
 * A way to ship in a service zone, for one shipping profile, fulfilled by a provider. Its prices
 * are rows of `shipping_option_prices` (fulfillment/tables.ts). `region_id` and `amount` are the
 * spec's flat option of a region (`POST /admin/shipping-options { region_id, amount }`): such an
 * option lives in the region's zone of the default location and has one price, for its region.
 */
export const shippingOptions = pgTable(
  'shipping_options',
  {
    id: idColumn(),
    name: text('name').notNull(),
    region_id: text('region_id'),
    amount: bigint('amount', { mode: 'number' }),
    price_type: text('price_type').$type<'flat' | 'calculated'>().notNull().default('flat'),
    provider_id: text('provider_id').notNull().default('manual_manual'),
    service_zone_id: text('service_zone_id'),
    shipping_profile_id: text('shipping_profile_id').notNull().default('sp_default'),
    type: jsonb('type').$type<{ label: string; description: string; code: string } | null>(),
    /** The shared type the option was given (`shipping_option_types`); `type` holds its copy. */
    type_id: text('type_id'),
    data: jsonb('data').$type<Record<string, unknown> | null>(),
    ...metadata,
    ...timestamps,
    ...softDelete,
  },
  (t) => [
    index('shipping_options_region_idx').on(t.region_id).where(sql`deleted_at is null`),
    index('shipping_options_zone_idx').on(t.service_zone_id).where(sql`deleted_at is null`),
  ],
);

/**
 * A kind of shipping option (Medusa's shipping option type: "Standard", "Express"), shared by the
 * options that name it with `type_id`. Each option keeps a copy of its type's label, code and
 * description in `shipping_options.type` (what every read shows); writing a type rewrites the
 * copies of its options in the same transaction.
 */
export const shippingOptionTypes = pgTable('shipping_option_types', {
  id: idColumn(),
  label: text('label').notNull(),
  code: text('code').notNull(),
  description: text('description').notNull().default(''),
  ...timestamps,
  ...softDelete,
});
