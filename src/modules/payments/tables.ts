import { bigint, index, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { idColumn, timestamps, ts } from '../../platform/db/columns.ts';

export type PaymentCollectionStatus =
  | 'not_paid'
  | 'awaiting'
  | 'authorized'
  | 'partially_authorized'
  | 'canceled'
  | 'failed'
  | 'completed';

/**
 * One per cart (Medusa's shape; its amount follows the cart total until checkout), or one of an
 * order's for a difference to pay after the sale (`order_id` set, `cart_id` null).
 */
export const paymentCollections = pgTable(
  'payment_collections',
  {
    id: idColumn(),
    cart_id: text('cart_id'),
    order_id: text('order_id'),
    currency_code: text('currency_code').notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    status: text('status').$type<PaymentCollectionStatus>().notNull(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('payment_collections_cart_idx').on(t.cart_id),
    index('payment_collections_order_idx').on(t.order_id),
  ],
);

export const paymentSessions = pgTable(
  'payment_sessions',
  {
    id: idColumn(),
    payment_collection_id: text('payment_collection_id').notNull(),
    provider_id: text('provider_id').notNull(),
    currency_code: text('currency_code').notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    status: text('status').$type<'pending' | 'requires_more' | 'authorized' | 'canceled' | 'error'>().notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    ...timestamps,
  },
  (t) => [index('payment_sessions_collection_idx').on(t.payment_collection_id)],
);

export type PaymentStatus =
  | 'authorized'
  | 'captured'
  | 'partially_captured'
  | 'canceled'
  | 'refunded'
  | 'partially_refunded';

/** A payment of an order (created authorized at checkout); the order desk captures and refunds it. */
export const payments = pgTable(
  'payments',
  {
    id: idColumn(),
    order_id: text('order_id').notNull(),
    payment_collection_id: text('payment_collection_id'),
    payment_session_id: text('payment_session_id'),
    provider_id: text('provider_id').notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    currency_code: text('currency_code').notNull(),
    status: text('status').$type<PaymentStatus>().notNull(),
    captured_amount: bigint('captured_amount', { mode: 'number' }).notNull().default(0),
    refunded_amount: bigint('refunded_amount', { mode: 'number' }).notNull().default(0),
    captured_at: ts('captured_at'),
    canceled_at: ts('canceled_at'),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    ...timestamps,
  },
  (t) => [index('payments_order_idx').on(t.order_id)],
);
