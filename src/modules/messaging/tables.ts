import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { idColumn, ts } from '../../platform/db/columns.ts';

export type DeliveryStatus = 'pending' | 'sent' | 'dead' | 'not_sent';

/**
 * Every message the shop asked a notification provider to send (order confirmation, password
 * reset, …): what, to whom, through which template, and how each try went. Sent by the delivery
 * engine (sender.ts) on the webhook schedule; `not_sent` when no provider for the channel was
 * installed at the time, so the admin sees what did not go out.
 */
export const notificationDeliveries = pgTable(
  'notification_deliveries',
  {
    id: idColumn(),
    channel: text('channel').notNull(),
    to: text('to').notNull(),
    template: text('template').notNull(),
    /** What the template is rendered with (shown to the admin). */
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    /** Values the admin must not see (a reset token), encrypted under ENCRYPTION_KEY, merged in at send time. */
    secret_data: text('secret_data'),
    /** The same message is queued at most once (an event dispatched twice). */
    dedupe_key: text('dedupe_key'),
    resource_type: text('resource_type'),
    resource_id: text('resource_id'),
    status: text('status').$type<DeliveryStatus>().notNull(),
    attempt_count: integer('attempt_count').notNull().default(0),
    next_attempt_at: ts('next_attempt_at'),
    locked_until: ts('locked_until'),
    /** The provider that took it and its message id (JSON), from the last successful try. */
    provider_id: text('provider_id'),
    provider_message_id: text('provider_message_id'),
    last_error: text('last_error'),
    sent_at: ts('sent_at'),
    created_at: ts('created_at').notNull(),
    updated_at: ts('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('notification_deliveries_dedupe_idx').on(t.dedupe_key),
    index('notification_deliveries_due_idx').on(t.next_attempt_at).where(sql`status = 'pending'`),
    index('notification_deliveries_created_idx').on(t.created_at),
  ],
);
