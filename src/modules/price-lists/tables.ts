import { bigint, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { idColumn, softDelete, ts, timestamps } from '../../platform/db/columns.ts';

/**
 * Medusa's price lists: a `sale` (its price is the calculated one, the variant's own stays the
 * original) or an `override` (both), for a time window and the customer groups of `rules`.
 * `group_ids` is `rules['customer.groups.id']` kept as an array for the store's price lookup
 * (null: every shopper); `rules_count` counts its rule attributes (Medusa's ordering key).
 */
export const priceLists = pgTable('price_lists', {
  id: idColumn(),
  title: text('title').notNull(),
  description: text('description'),
  status: text('status').$type<'draft' | 'active'>().notNull().default('draft'),
  type: text('type').$type<'sale' | 'override'>().notNull().default('sale'),
  starts_at: ts('starts_at'),
  ends_at: ts('ends_at'),
  rules: jsonb('rules').$type<Record<string, string[]>>().notNull().default({}),
  group_ids: text('group_ids').array(),
  rules_count: integer('rules_count').notNull().default(0),
  ...timestamps,
  ...softDelete,
});

/**
 * A price list's price for a variant in a currency, optionally for one region (`rules.region_id`)
 * and a quantity range. Amounts in the currency's minor unit, like `prices`. Removed with their
 * list's deletion or a batch delete (hard delete: nothing references a price).
 */
export const priceListPrices = pgTable(
  'price_list_prices',
  {
    id: idColumn(),
    price_list_id: text('price_list_id').notNull(),
    variant_id: text('variant_id').notNull(),
    currency_code: text('currency_code').notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    min_quantity: integer('min_quantity'),
    max_quantity: integer('max_quantity'),
    region_id: text('region_id'),
    rules: jsonb('rules').$type<Record<string, string>>().notNull().default({}),
    ...timestamps,
  },
  (t) => [
    // The store's lookup: one variant's prices in one currency.
    index('price_list_prices_variant_idx').on(t.variant_id, t.currency_code),
    index('price_list_prices_list_idx').on(t.price_list_id, t.id),
  ],
);
