import { bigint, boolean, index, pgTable } from 'drizzle-orm/pg-core';
import { swapHeadColumns, swapTailColumns } from './swap-columns.ts';

/**
 * An exchange of a placed order (Medusa's order_exchange): items back through its return, new
 * items out as order lines. What it adds and takes is in its order change's actions; this row
 * holds what the change does not: its return, the difference it left and whether it was canceled.
 */
export const orderExchanges = pgTable(
  'order_exchanges',
  {
    ...swapHeadColumns(),
    /** Outbound less inbound (plus shipping) once confirmed: > 0 the shopper pays, < 0 is refunded. */
    difference_due: bigint('difference_due', { mode: 'number' }),
    allow_backorder: boolean('allow_backorder').notNull().default(false),
    ...swapTailColumns(),
  },
  (t) => [index('order_exchanges_order_idx').on(t.order_id)],
);
