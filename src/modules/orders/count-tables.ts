import { bigint, boolean, integer, pgTable, primaryKey, smallint, text } from 'drizzle-orm/pg-core';
import { ts } from '../../platform/db/columns.ts';

/**
 * The order desk's counts, kept exact by triggers on `orders` (migration order_desk_counters):
 * per combination of the list's equality filters, how many orders, split over 8 slots by a hash
 * of the order id so concurrent checkouts do not queue on one counter row. `GET /admin/orders`
 * sums these rows for its `count` when it filters by nothing else (desk-queries.ts), where
 * counting a million order rows would take longer than the page itself.
 */
export const orderCounts = pgTable(
  'order_counts',
  {
    is_draft_order: boolean('is_draft_order').notNull(),
    status: text('status').notNull(),
    payment_status: text('payment_status').notNull(),
    fulfillment_status: text('fulfillment_status').notNull(),
    region_id: text('region_id').notNull(),
    /** '' for an order without a channel (a key column cannot be null). */
    sales_channel_id: text('sales_channel_id').notNull(),
    slot: smallint('slot').notNull(),
    orders: integer('orders').notNull(),
  },
  (t) => [
    primaryKey({
      columns: [
        t.is_draft_order,
        t.status,
        t.payment_status,
        t.fulfillment_status,
        t.region_id,
        t.sales_channel_id,
        t.slot,
      ],
    }),
  ],
);

/**
 * Orders per quarter hour (UTC) and currency, kept exact by the same triggers: `sold` and
 * `revenue` are the orders not canceled and their totals (the dashboard's sales by day: every
 * time zone in use is a whole number of quarter hours, so its days end on bucket edges and 30
 * days are at most 2,880 rows per currency and slot however many orders they hold); `placed`
 * are the orders that are not drafts, whatever their status (`GET /admin/orders` counts a
 * `created_at` range as the buckets inside it plus the orders of its two edge quarter hours).
 */
export const orderBuckets = pgTable(
  'order_buckets',
  {
    bucket: ts('bucket').notNull(),
    currency_code: text('currency_code').notNull(),
    slot: smallint('slot').notNull(),
    sold: integer('sold').notNull(),
    revenue: bigint('revenue', { mode: 'number' }).notNull(),
    placed: integer('placed').notNull(),
  },
  (t) => [primaryKey({ columns: [t.bucket, t.currency_code, t.slot] })],
);
