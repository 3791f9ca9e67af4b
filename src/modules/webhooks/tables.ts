import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { idColumn, softDelete, timestamps, ts } from '../../platform/db/columns.ts';

export type DeliveryStatus = 'pending' | 'retrying' | 'succeeded' | 'dead';

export const webhookSubscriptions = pgTable(
  'webhook_subscriptions',
  {
    id: idColumn(),
    url: text('url').notNull(),
    /** Event names and patterns (`order.*`, `*`), matched with `eventMatches`. */
    events: jsonb('events').$type<string[]>().notNull(),
    active: boolean('active').notNull().default(true),
    /** AES-256-GCM blob from platform/crypto.ts; the clear secret is only ever in the create response. */
    secret_encrypted: text('secret_encrypted').notNull(),
    ...timestamps,
    ...softDelete,
  },
  (t) => [index('webhook_subscriptions_live_idx').on(t.id).where(sql`deleted_at is null`)],
);

/** The body of an event, stored once however many subscriptions receive it; text keeps the signed bytes exact. */
export const webhookPayloads = pgTable('webhook_payloads', {
  event_id: text('event_id').primaryKey(),
  event: text('event').notNull(),
  body: text('body').notNull(),
  created_at: ts('created_at').notNull(),
});

export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    /** Sent as X-Service-Delivery-Id: the same on every retry. */
    id: idColumn(),
    subscription_id: text('subscription_id')
      .notNull()
      .references(() => webhookSubscriptions.id, { onDelete: 'cascade' }),
    event_id: text('event_id')
      .notNull()
      .references(() => webhookPayloads.event_id, { onDelete: 'cascade' }),
    event: text('event').notNull(),
    status: text('status').$type<DeliveryStatus>().notNull(),
    attempt_count: integer('attempt_count').notNull().default(0),
    /** Null once settled (succeeded or dead). */
    next_attempt_at: ts('next_attempt_at'),
    last_status_code: integer('last_status_code'),
    /** Lease of the sender that claimed it; an expired lease (crashed sender) makes it claimable again. */
    locked_until: ts('locked_until'),
    ...timestamps,
  },
  (t) => [
    // A redelivered outbox batch fans out again: this makes the second insert a no-op.
    uniqueIndex('webhook_deliveries_event_subscription_idx').on(t.event_id, t.subscription_id),
    // The sender's claim probes each subscription's open deliveries in due order.
    index('webhook_deliveries_due_idx')
      .on(t.subscription_id, t.next_attempt_at)
      .where(sql`status in ('pending', 'retrying')`),
    // The ledger of one subscription, newest first, optionally by status.
    index('webhook_deliveries_ledger_idx').on(t.subscription_id, t.status, t.id),
    index('webhook_deliveries_subscription_idx').on(t.subscription_id, t.id),
  ],
);

export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: idColumn(),
    delivery_id: text('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attempted_at: ts('attempted_at').notNull(),
    /** Null when no HTTP answer came (timeout, refused connection, blocked address). */
    status_code: integer('status_code'),
    duration_ms: integer('duration_ms').notNull(),
    error: text('error'),
    /** The first 1 KiB of what the receiver answered. */
    response_body: text('response_body'),
  },
  (t) => [index('webhook_attempts_delivery_idx').on(t.delivery_id, t.id)],
);
