import { bigint, index, pgTable, text } from 'drizzle-orm/pg-core';
import { idColumn, ts } from '../../platform/db/columns.ts';

/** Each capture of a payment (a payment may be captured in parts); `payments.captured_amount` is their sum. */
export const paymentCaptures = pgTable(
  'payment_captures',
  {
    id: idColumn(),
    payment_id: text('payment_id').notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    created_by: text('created_by'),
    created_at: ts('created_at').notNull(),
  },
  (t) => [index('payment_captures_payment_idx').on(t.payment_id)],
);

/** Money given back from a captured payment; `payments.refunded_amount` is their sum. */
export const refunds = pgTable(
  'refunds',
  {
    id: idColumn(),
    payment_id: text('payment_id').notNull(),
    order_id: text('order_id').notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    /** Free text as the operator typed it, at most 255 characters; the schema enforces the length. */
    reason: text('reason'),
    note: text('note'),
    /** Medusa's refund reason id, kept as given (there is no refund reason catalog yet). */
    refund_reason_id: text('refund_reason_id'),
    created_by: text('created_by'),
    created_at: ts('created_at').notNull(),
  },
  (t) => [index('refunds_payment_idx').on(t.payment_id), index('refunds_order_idx').on(t.order_id)],
);
