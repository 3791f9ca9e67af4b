import { bigint, boolean, index, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { idColumn, metadata, timestamps, ts } from '../../platform/db/columns.ts';

/**
 * An exchange of a placed order (Medusa's order_exchange): items back through its return, new
 * items out as order lines. What it adds and takes is in its order change's actions; this row
 * holds what the change does not: its return, the difference it left and whether it was canceled.
 */
export const orderExchanges = pgTable(
  'order_exchanges',
  {
    id: idColumn(),
    display_id: serial('display_id').notNull(),
    order_id: text('order_id').notNull(),
    return_id: text('return_id'),
    /** Outbound less inbound (plus shipping) once confirmed: > 0 the shopper pays, < 0 is refunded. */
    difference_due: bigint('difference_due', { mode: 'number' }),
    allow_backorder: boolean('allow_backorder').notNull().default(false),
    no_notification: boolean('no_notification').notNull().default(false),
    created_by: text('created_by'),
    confirmed_at: ts('confirmed_at'),
    canceled_at: ts('canceled_at'),
    ...metadata,
    ...timestamps,
  },
  (t) => [index('order_exchanges_order_idx').on(t.order_id)],
);
