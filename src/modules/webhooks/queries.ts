import { and, asc, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.ts';
import { insertRow } from '../../platform/db/insert-row.ts';
import { countRows, findLiveRow, rowsPage } from '../../platform/db/live-rows.ts';
import type { Page } from '../../platform/http/pagination.ts';
import {
  webhookAttempts,
  webhookDeliveries,
  webhookPayloads,
  webhookSubscriptions,
  type DeliveryStatus,
} from './tables.ts';

export type SubscriptionRow = typeof webhookSubscriptions.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type AttemptRow = typeof webhookAttempts.$inferSelect;

const OPEN: DeliveryStatus[] = ['pending', 'retrying'];

// ---- subscriptions ----

export function insertSubscription(
  db: Executor,
  row: typeof webhookSubscriptions.$inferInsert,
): Promise<SubscriptionRow> {
  return insertRow(db, webhookSubscriptions, row);
}

export function listLiveSubscriptionRows(db: Executor, page: Page): Promise<SubscriptionRow[]> {
  return rowsPage(db, webhookSubscriptions, isNull(webhookSubscriptions.deleted_at), page);
}

export function countLiveSubscriptions(db: Executor): Promise<number> {
  return countRows(db, webhookSubscriptions, isNull(webhookSubscriptions.deleted_at));
}

export function findLiveSubscription(db: Executor, id: string): Promise<SubscriptionRow | undefined> {
  return findLiveRow(db, webhookSubscriptions, id);
}

export async function updateLiveSubscription(
  db: Executor,
  id: string,
  fields: Partial<Pick<SubscriptionRow, 'url' | 'events' | 'active' | 'updated_at'>>,
): Promise<SubscriptionRow | undefined> {
  const [row] = await db
    .update(webhookSubscriptions)
    .set(fields)
    .where(and(eq(webhookSubscriptions.id, id), isNull(webhookSubscriptions.deleted_at)))
    .returning();
  return row;
}

export async function softDeleteSubscription(db: Executor, id: string, now: Date): Promise<boolean> {
  const done = await db
    .update(webhookSubscriptions)
    .set({ deleted_at: now, active: false, updated_at: now })
    .where(and(eq(webhookSubscriptions.id, id), isNull(webhookSubscriptions.deleted_at)))
    .returning({ id: webhookSubscriptions.id });
  return done.length > 0;
}

/**
 * The fan-out's view: every live, active subscription and its patterns, as one JSON array read by
 * the statement that claims a batch of events (the dispatcher's `read`).
 */
export const activeSubscriptionsJson = sql`(select coalesce(json_agg(json_build_object('id', s.id, 'events', s.events) order by s.id), '[]'::json)
  from webhook_subscriptions s where s.active and s.deleted_at is null)`;

export type ActiveSubscription = Pick<SubscriptionRow, 'id' | 'events'>;

// ---- ledger ----

/**
 * A deactivated or deleted subscription stops sending: its open deliveries become dead
 * (replayable with replay-dead once it is active again).
 */
export async function closeOpenDeliveries(db: Executor, subscriptionId: string, now: Date): Promise<number> {
  const done = await db
    .update(webhookDeliveries)
    .set({ status: 'dead', next_attempt_at: null, updated_at: now })
    .where(and(eq(webhookDeliveries.subscription_id, subscriptionId), inArray(webhookDeliveries.status, OPEN)))
    .returning({ id: webhookDeliveries.id });
  return done.length;
}

function ofSubscription(subscriptionId: string, status?: DeliveryStatus[]): SQL | undefined {
  return and(
    eq(webhookDeliveries.subscription_id, subscriptionId),
    status?.length ? inArray(webhookDeliveries.status, status) : undefined,
  );
}

/** Newest first: the ledger is read to see what just happened. */
export async function listDeliveryRows(
  db: Executor,
  subscriptionId: string,
  status: DeliveryStatus[] | undefined,
  page: Page,
): Promise<DeliveryRow[]> {
  return db
    .select()
    .from(webhookDeliveries)
    .where(ofSubscription(subscriptionId, status))
    .orderBy(desc(webhookDeliveries.id))
    .limit(page.limit)
    .offset(page.offset);
}

export async function countDeliveries(
  db: Executor,
  subscriptionId: string,
  status: DeliveryStatus[] | undefined,
): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(webhookDeliveries)
    .where(ofSubscription(subscriptionId, status));
  return row.n;
}

export async function findDeliveryWithBody(
  db: Executor,
  subscriptionId: string,
  deliveryId: string,
): Promise<(DeliveryRow & { body: string }) | undefined> {
  const [row] = await db
    .select({ delivery: webhookDeliveries, body: webhookPayloads.body })
    .from(webhookDeliveries)
    .innerJoin(webhookPayloads, eq(webhookPayloads.event_id, webhookDeliveries.event_id))
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.subscription_id, subscriptionId)))
    .limit(1);
  return row ? { ...row.delivery, body: row.body } : undefined;
}

export async function listAttemptRows(db: Executor, deliveryId: string): Promise<AttemptRow[]> {
  return db
    .select()
    .from(webhookAttempts)
    .where(eq(webhookAttempts.delivery_id, deliveryId))
    .orderBy(asc(webhookAttempts.id));
}

/**
 * Makes one delivery due now, whatever its status. A lease is left alone: when a sender is
 * sending it right now, that attempt's outcome stands (no second concurrent attempt).
 */
export async function makeDeliveryDue(
  db: Executor,
  subscriptionId: string,
  deliveryId: string,
  now: Date,
): Promise<boolean> {
  const done = await db
    .update(webhookDeliveries)
    .set({ status: 'retrying', next_attempt_at: now, updated_at: now })
    .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.subscription_id, subscriptionId)))
    .returning({ id: webhookDeliveries.id });
  return done.length > 0;
}

export async function makeDeadDeliveriesDue(db: Executor, subscriptionId: string, now: Date): Promise<number> {
  const done = await db
    .update(webhookDeliveries)
    .set({ status: 'retrying', next_attempt_at: now, updated_at: now })
    .where(and(eq(webhookDeliveries.subscription_id, subscriptionId), eq(webhookDeliveries.status, 'dead')))
    .returning({ id: webhookDeliveries.id });
  return done.length;
}
