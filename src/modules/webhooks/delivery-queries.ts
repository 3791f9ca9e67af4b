import { sql, type SQL } from 'drizzle-orm';
import { rows, type Executor } from '../../platform/db/database.ts';
import type { Outcome } from '../../platform/delivery/client.ts';
import { newId } from '../../platform/ids.ts';
import type { webhookDeliveries, webhookPayloads } from './tables.ts';

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
const idList = (ids: string[]) =>
  sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  );

/**
 * Claims and outcomes commit without waiting for the WAL flush (`synchronous_commit = off` for
 * that statement's transaction only): a database crash may then forget the last moments of
 * bookkeeping, and those deliveries are sent again, with the same delivery id, which at-least-once
 * delivery allows anyway. Locks and visibility are unaffected, so senders still never collide.
 */
const ASYNC_COMMIT_SETTING = sql`set_config('synchronous_commit', 'off', true)`;
const ASYNC_COMMIT = sql`(select ${ASYNC_COMMIT_SETTING}) as async_commit`;

/**
 * Rows travel as one JSON parameter expanded by jsonb_to_recordset: a batch of any size is one
 * short statement (no per-row bind parameters to build, parse or count against the limit).
 */
const asJson = (values: unknown[]) => sql`${JSON.stringify(values)}::jsonb`;

/** Each matched event's body, stored once, as one write for the dispatcher's statement. */
export function payloadsInsert(values: (typeof webhookPayloads.$inferInsert)[]): SQL {
  return sql`insert into webhook_payloads (event_id, event, body, created_at)
    select * from jsonb_to_recordset(${asJson(values)}) as x(event_id text, event text, body text, created_at timestamptz)
    on conflict do nothing`;
}

/** A delivery per (event, subscription), as one write; a redelivered outbox batch's pairs are skipped. */
export function deliveriesInsert(values: (typeof webhookDeliveries.$inferInsert)[]): SQL {
  return sql`insert into webhook_deliveries (id, subscription_id, event_id, event, status, attempt_count, next_attempt_at, created_at, updated_at)
    select * from jsonb_to_recordset(${asJson(values)})
      as x(id text, subscription_id text, event_id text, event text, status text, attempt_count int,
           next_attempt_at timestamptz, created_at timestamptz, updated_at timestamptz)
    on conflict do nothing`;
}

/**
 * Leases up to `limit` due deliveries, oldest due first, at most `room[subscription]` (default
 * `perSubscription`) for each subscription, so deliveries a hanging receiver piles up neither
 * fill the sender's pool nor get scanned on every claim (each active subscription is one index
 * probe). SKIP LOCKED: concurrent senders, on any instance, never take the same row.
 * `= any(array(…))` (not `in (…)`) keeps the outer update on the primary key whatever the
 * planner thinks of the table's size.
 */
export async function claimDueDeliveries(
  db: Executor,
  opts: { now: Date; leaseUntil: Date; limit: number; perSubscription: number; room?: Record<string, number> },
): Promise<ClaimedDelivery[]> {
  const now = isoTs(opts.now);
  return rows<ClaimedDelivery>(
    db,
    sql`update webhook_deliveries d set locked_until = ${isoTs(opts.leaseUntil)}
        from webhook_subscriptions s, webhook_payloads p, ${ASYNC_COMMIT}
        where d.id = any(array(
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
          limit ${opts.limit}))
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

/**
 * One statement for a batch of outcomes: each attempt row, and each delivery's new state where
 * this sender still holds the lease (a sender that outlived its lease must not overwrite the
 * newer owner's state). Returns the ids of the deliveries it updated. An outcome that is not
 * `counted` (the subscription was closed) changes the status only, without an attempt row.
 */
export async function recordAttempts(db: Executor, outcomes: Outcome[]): Promise<Set<string>> {
  if (!outcomes.length) return new Set();
  const states = outcomes.map((o) => ({
    id: o.deliveryId,
    lease: o.leaseUntil,
    status: o.status,
    next_at: o.nextAttemptAt,
    code: o.statusCode,
    finished: o.finishedAt,
    counted: o.counted,
  }));
  const attempts = outcomes
    .filter((o) => o.counted)
    .map((o) => ({
      id: newId('wha'),
      delivery_id: o.deliveryId,
      attempted_at: o.attemptedAt,
      status_code: o.statusCode,
      duration_ms: o.durationMs,
      error: o.error,
      response_body: o.responseBody,
    }));
  const updated = await rows<{ id: string }>(
    db,
    sql`with async_commit as (select ${ASYNC_COMMIT_SETTING}),
        v as (
          select * from jsonb_to_recordset(${asJson(states)})
            as v(id text, lease timestamptz, status text, next_at timestamptz, code int, finished timestamptz, counted boolean)),
        upd as (
          update webhook_deliveries d set
            -- Closed while this attempt ran (subscription deactivated or deleted): stays dead unless it succeeded.
            status = case when d.status = 'dead' and v.status <> 'succeeded' then 'dead' else v.status end,
            attempt_count = d.attempt_count + (case when v.counted then 1 else 0 end),
            next_attempt_at = case when d.status = 'dead' and v.status <> 'succeeded' then null else v.next_at end,
            last_status_code = case when v.counted then v.code else d.last_status_code end,
            locked_until = null, updated_at = v.finished
          from v, async_commit where d.id = any(array(select id from v)) and d.id = v.id and d.locked_until = v.lease
          returning d.id),
        ins as (
          insert into webhook_attempts (id, delivery_id, attempted_at, status_code, duration_ms, error, response_body)
          select * from jsonb_to_recordset(${asJson(attempts)})
            as a(id text, delivery_id text, attempted_at timestamptz, status_code int, duration_ms int, error text, response_body text))
        select id from upd`,
  );
  return new Set(updated.map((r) => r.id));
}
