import { bigint, index, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { idColumn, ts } from '../../platform/db/columns.ts';

/**
 * A capture or refund asked of a plugin's payment provider. The row is written (pending) before
 * the provider is called and its id is the provider's idempotency key, so the amount is reserved
 * while the call runs, a retry after a timeout repeats the same operation, and the ledger records
 * the capture or refund only once the provider said yes (or a webhook reported it).
 */
export const paymentOperations = pgTable(
  'payment_operations',
  {
    id: idColumn(),
    payment_id: text('payment_id').notNull(),
    order_id: text('order_id').notNull(),
    kind: text('kind').$type<'capture' | 'refund'>().notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    status: text('status').$type<'pending' | 'succeeded' | 'failed'>().notNull(),
    /** Refunds: what the admin gave (reason, note, refund_reason_id). */
    input: jsonb('input').$type<Record<string, string | null>>().notNull(),
    error: text('error'),
    created_by: text('created_by'),
    created_at: ts('created_at').notNull(),
    updated_at: ts('updated_at').notNull(),
  },
  (t) => [index('payment_operations_payment_idx').on(t.payment_id, t.status)],
);

/** Provider webhook events already applied: a repeated event id is acknowledged and ignored. */
export const paymentWebhookEvents = pgTable(
  'payment_webhook_events',
  {
    provider_id: text('provider_id').notNull(),
    event_id: text('event_id').notNull(),
    action: text('action').notNull(),
    session_id: text('session_id'),
    amount: bigint('amount', { mode: 'number' }),
    received_at: ts('received_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.provider_id, t.event_id] })],
);
