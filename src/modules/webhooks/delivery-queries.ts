import { sql } from 'drizzle-orm';
import { rows, type Executor } from '../../platform/db/database.ts';
import { webhookDeliveries, webhookPayloads, type DeliveryStatus } from './tables.ts';

/** What a sender needs to make one attempt, read in the same statement that claims it. */
export interface ClaimedDelivery {
  id: string;
  subscription_id: string;
  event: string;
  attempt_count: number;
  url: string;
  secret_encrypted: string;
  /** False when the subscription was deactivated or deleted since the delivery was queued. */
  live: boolean;
  body: string;
}

const isoTs = (d: Date) => sql`${d.toISOString()}::timestamptz`;
const idList = (ids: string[]) => sql.join(ids.map((id) => sql`${id}`), sql`, `);

/** Bounded so one insert stays far below PostgreSQL's 65,535 bind parameters. */
const INSERT_CHUNK = 1000;

export async function insertPayloads(db: Executor, values: (typeof webhookPayloads.$inferInsert)[]): Promise<void> {
  for (let i = 0; i < values.length; i += INSERT_CHUNK) {
    await db.insert(webhookPayloads).values(values.slice(i, i + INSERT_CHUNK)).onConflictDoNothing();
  }
}

/** A redelivered outbox batch inserts the same (event, subscription) pairs again: those are skipped. */
export async function insertDeliveries(db: Executor, values: (typeof webhookDeliveries.$inferInsert)[]): Promise<void> {
  for (let i = 0; i < values.length; i += INSERT_CHUNK) {
    await db.insert(webhookDeliveries).values(values.slice(i, i + INSERT_CHUNK)).onConflictDoNothing();
  }
}

/**
 * Leases up to `limit` due deliveries, oldest due first, at most `room[subscription]` (default
 * `perSubscription`) for each subscription, so deliveries a hanging receiver piles up neither
 * fill the sender's pool nor get scanned on every claim (each active subscription is one index
 * probe). SKIP LOCKED: concurrent senders, on any instance, never take the same row.
 */
export async function claimDueDeliveries(
  db: Executor,
  opts: { now: Date; leaseUntil: Date; limit: number; perSubscription: number; room?: Record<string, number> },
): Promise<ClaimedDelivery[]> {
  const now = isoTs(opts.now);
  return rows<ClaimedDelivery>(
    db,
    sql`update webhook_deliveries d set locked_until = ${isoTs(opts.leaseUntil)}
        from webhook_subscriptions s, webhook_payloads p
        where d.id in (
          select c.id from webhook_subscriptions s2
          left join jsonb_each_text(${JSON.stringify(opts.room ?? {})}::jsonb) room on room.key = s2.id
          cross join lateral (
            select id, next_attempt_at from webhook_deliveries
            where subscription_id = s2.id and status in ('pending', 'retrying') and next_attempt_at <= ${now}
              and (locked_until is null or locked_until < ${now})
            order by next_attempt_at
            limit greatest(coalesce(room.value::int, ${opts.perSubscription}), 0)
            for update skip locked) c
          where s2.active and s2.deleted_at is null
          order by c.next_attempt_at
          limit ${opts.limit})
          and s.id = d.subscription_id and p.event_id = d.event_id
        returning d.id, d.subscription_id, d.event, d.attempt_count, s.url, s.secret_encrypted,
          (s.active and s.deleted_at is null) as live, p.body`,
  );
}

/** Gives back claimed deliveries unsent (pool limits, shutdown), so any sender can take them at once. */
export async function releaseClaims(db: Executor, ids: string[], leaseUntil: Date): Promise<void> {
  if (!ids.length) return;
  await db.execute(
    sql`update webhook_deliveries set locked_until = null where id in (${idList(ids)}) and locked_until = ${isoTs(leaseUntil)}`,
  );
}

export interface AttemptOutcome {
  attemptId: string;
  deliveryId: string;
  /** The lease this sender holds: the delivery changes only if it is still ours. */
  leaseUntil: Date;
  attemptedAt: Date;
  finishedAt: Date;
  status: DeliveryStatus;
  nextAttemptAt: Date | null;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  responseBody: string | null;
  /** False for an attempt that was never made (subscription gone): only the status changes. */
  counted: boolean;
}

/**
 * One statement: the attempt row, and the delivery's new state if this sender still holds the
 * lease. Returns whether the delivery was updated.
 */
export async function recordAttempt(db: Executor, o: AttemptOutcome): Promise<boolean> {
  const insert = o.counted
    ? sql`, ins as (insert into webhook_attempts (id, delivery_id, attempted_at, status_code, duration_ms, error, response_body)
          values (${o.attemptId}, ${o.deliveryId}, ${isoTs(o.attemptedAt)}, ${o.statusCode}, ${o.durationMs}, ${o.error}, ${o.responseBody}))`
    : sql``;
  const [row] = await rows<{ updated: number }>(
    db,
    sql`with upd as (
          update webhook_deliveries set status = ${o.status}, attempt_count = attempt_count + ${o.counted ? 1 : 0},
            next_attempt_at = ${o.nextAttemptAt ? isoTs(o.nextAttemptAt) : null},
            last_status_code = ${o.counted ? sql`${o.statusCode}::int` : sql`last_status_code`},
            locked_until = null, updated_at = ${isoTs(o.finishedAt)}
          where id = ${o.deliveryId} and locked_until = ${isoTs(o.leaseUntil)}
          returning id)${insert}
        select count(*)::int as updated from upd`,
  );
  return row.updated > 0;
}
