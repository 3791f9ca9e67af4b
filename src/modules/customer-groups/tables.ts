import { sql } from 'drizzle-orm';
import { index, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { idColumn, metadata, softDelete, ts, timestamps } from '../../platform/db/columns.ts';

/** Medusa's customer groups: a name unique among live groups, soft-deleted. */
export const customerGroups = pgTable(
  'customer_groups',
  {
    id: idColumn(),
    name: text('name').notNull(),
    ...metadata,
    created_by: text('created_by'),
    ...timestamps,
    ...softDelete,
  },
  (t) => [uniqueIndex('customer_groups_name_live_idx').on(t.name).where(sql`deleted_at is null`)],
);

/**
 * Who is in which group. Rows go with a deleted group (hard delete), so a customer's groups are
 * read by `customer_id` alone (the store's price context reads them on every signed-in request).
 */
export const customerGroupCustomers = pgTable(
  'customer_group_customers',
  {
    customer_group_id: text('customer_group_id').notNull(),
    customer_id: text('customer_id').notNull(),
    created_by: text('created_by'),
    created_at: ts('created_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.customer_group_id, t.customer_id] }),
    index('customer_group_customers_customer_idx').on(t.customer_id, t.customer_group_id),
  ],
);
