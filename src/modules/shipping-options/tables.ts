import { sql } from 'drizzle-orm';
import { bigint, index, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { idColumn, softDelete, timestamps } from '../../platform/db/columns.ts';

/** Flat-rate shipping per region, fulfilled by the built-in manual provider. */
export const shippingOptions = pgTable(
  'shipping_options',
  {
    id: idColumn(),
    name: text('name').notNull(),
    region_id: text('region_id').notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    price_type: text('price_type').$type<'flat'>().notNull().default('flat'),
    provider_id: text('provider_id').notNull().default('manual_manual'),
    data: jsonb('data').$type<Record<string, unknown> | null>(),
    ...timestamps,
    ...softDelete,
  },
  (t) => [index('shipping_options_region_idx').on(t.region_id).where(sql`deleted_at is null`)],
);
