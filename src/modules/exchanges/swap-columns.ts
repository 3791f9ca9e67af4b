import { boolean, serial, text } from 'drizzle-orm/pg-core';
import { idColumn, metadata, timestamps, ts } from '../../platform/db/columns.ts';

/**
 * The columns an exchange row and a claim row share (both are swaps, exchanges/routes.ts): their
 * order and return, then who made it and when it was confirmed or canceled. Fresh builders per
 * table, as `idColumn()` gives.
 */
export const swapHeadColumns = () => ({
  id: idColumn(),
  display_id: serial('display_id').notNull(),
  order_id: text('order_id').notNull(),
  return_id: text('return_id'),
});

export const swapTailColumns = () => ({
  no_notification: boolean('no_notification').notNull().default(false),
  created_by: text('created_by'),
  confirmed_at: ts('confirmed_at'),
  canceled_at: ts('canceled_at'),
  ...metadata,
  ...timestamps,
});
