import { boolean, index, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { idColumn, metadata, timestamps, ts } from '../../platform/db/columns.ts';

/** One order line's share of a fulfillment, copied so the fulfillment reads on its own. */
export interface FulfillmentItemJson {
  id: string;
  line_item_id: string;
  title: string;
  sku: string | null;
  quantity: number;
}

export interface FulfillmentStockMoveJson {
  inventory_item_id: string;
  location_id: string;
  line_item_id: string;
  quantity: number;
}

export interface FulfillmentLabelJson {
  id: string;
  tracking_number: string;
  tracking_url: string;
  label_url: string;
}

/**
 * A parcel of an order: created (fulfilled) → shipped → delivered, or canceled before it ships.
 * Items and labels are small lists always read with the fulfillment, so they live in jsonb.
 */
export const fulfillments = pgTable(
  'fulfillments',
  {
    id: idColumn(),
    order_id: text('order_id').notNull(),
    location_id: text('location_id'),
    shipping_option_id: text('shipping_option_id'),
    /** The fulfilment provider that made it (its option's), and what that provider answered (its shipment). */
    provider_id: text('provider_id'),
    data: jsonb('data').$type<Record<string, unknown> | null>(),
    items: jsonb('items').$type<FulfillmentItemJson[]>().notNull(),
    labels: jsonb('labels').$type<FulfillmentLabelJson[]>().notNull(),
    /** Stock that left the shelf for it (inventory's StockMove), put back if it is canceled before shipping. */
    stock_moves: jsonb('stock_moves').$type<FulfillmentStockMoveJson[]>().notNull().default([]),
    /**
     * Set while its carrier is being asked, outside the order lock (fulfillment-actions.ts): `calling`
     * holds its units against a second fulfilment; `unanswered` (the carrier timed out) waits for a
     * retry of the same units, which takes it over and asks again with the same id as idempotency
     * key. Such rows are not the order's fulfilments yet: views and steps skip them. `canceling`: a
     * made fulfilment whose carrier is asked to cancel it (no shipment meanwhile). Null: made.
     */
    carrier_pending: text('carrier_pending').$type<'calling' | 'unanswered' | 'canceling'>(),
    no_notification: boolean('no_notification').notNull().default(false),
    shipped_at: ts('shipped_at'),
    delivered_at: ts('delivered_at'),
    canceled_at: ts('canceled_at'),
    created_by: text('created_by'),
    ...metadata,
    ...timestamps,
  },
  (t) => [index('fulfillments_order_idx').on(t.order_id)],
);
