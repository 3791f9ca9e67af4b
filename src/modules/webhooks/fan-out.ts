import { sql } from 'drizzle-orm';
import { eventMatches, eventMatchesSql } from '../../platform/events/bus.ts';
import type { DurableSink } from '../../platform/events/dispatcher.ts';
import { newId } from '../../platform/ids.ts';
import { deliveriesInsert, payloadsInsert } from './delivery-queries.ts';
import { activeSubscriptionsJson, type ActiveSubscription } from './queries.ts';
import type { webhookDeliveries } from './tables.ts';

/**
 * The dispatcher's durable sink for webhooks: with the statement that marks a batch of events
 * dispatched, store each matched event's body once and queue a delivery per matching active
 * subscription (read with the batch's claim), due now. Events nobody subscribed to leave no rows
 * (and wake no sender).
 */
export const webhookFanOut: DurableSink = {
  wants: (name) => sql`exists (select 1 from webhook_subscriptions s, jsonb_array_elements_text(s.events) as p(pattern)
    where s.active and s.deleted_at is null and ${eventMatchesSql(sql`p.pattern`, name)})`,
  read: activeSubscriptionsJson,
  write(_ctx, events, now, read) {
    const subscriptions = (read ?? []) as ActiveSubscription[];
    const payloads = [];
    const deliveries: (typeof webhookDeliveries.$inferInsert)[] = [];
    for (const event of events) {
      const matching = subscriptions.filter((s) => s.events.some((pattern) => eventMatches(pattern, event.name)));
      if (!matching.length) continue;
      payloads.push({ event_id: event.id, event: event.name, body: JSON.stringify(event.payload), created_at: now });
      for (const s of matching) {
        deliveries.push({
          id: newId('whd'),
          subscription_id: s.id,
          event_id: event.id,
          event: event.name,
          status: 'pending',
          attempt_count: 0,
          next_attempt_at: now,
          created_at: now,
          updated_at: now,
        });
      }
    }
    if (!deliveries.length) return { writes: [], queued: false };
    return { writes: [payloadsInsert(payloads), deliveriesInsert(deliveries)], queued: true };
  },
};
