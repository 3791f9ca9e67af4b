import { and, asc, count, desc, eq, inArray, isNull, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import { rows, type Executor } from '../../platform/db/database.ts';
import type { Outcome } from '../../platform/delivery/client.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { notificationDeliveries as d } from './tables.ts';

export type DeliveryRow = typeof d.$inferSelect;

/** NOTIFY channel that wakes notification senders when a delivery is queued. */
export const NOTIFICATIONS_CHANNEL = 'emporium_notifications';

/** A delivery as one write for a caller's statement, unless one with the same dedupe key exists; RETURNs its id when queued. */
export function deliveryInsert(row: typeof d.$inferInsert & { created_at: Date; updated_at: Date }): SQL {
  const at = (v: Date | null | undefined) => (v ? v.toISOString() : null);
  return sql`insert into notification_deliveries (id, channel, "to", template, data, secret_data, dedupe_key, resource_type, resource_id,
      status, attempt_count, next_attempt_at, last_error, created_at, updated_at)
    values (${row.id}, ${row.channel}, ${row.to}, ${row.template}, ${JSON.stringify(row.data)}::jsonb, ${row.secret_data ?? null},
      ${row.dedupe_key ?? null}, ${row.resource_type ?? null}, ${row.resource_id ?? null}, ${row.status}, ${row.attempt_count ?? 0},
      ${at(row.next_attempt_at)}::timestamptz, ${row.last_error ?? null}, ${at(row.created_at)}::timestamptz, ${at(row.updated_at)}::timestamptz)
    on conflict (dedupe_key) do nothing
    returning id`;
}

/** Leases due deliveries, oldest due first; SKIP LOCKED keeps senders on other instances off them. */
export async function claimDueDeliveries(
  db: Executor,
  opts: { now: Date; leaseUntil: Date; limit: number },
): Promise<DeliveryRow[]> {
  const due = db
    .select({ id: d.id })
    .from(d)
    .where(
      and(
        eq(d.status, 'pending'),
        lte(d.next_attempt_at, opts.now),
        or(isNull(d.locked_until), lt(d.locked_until, opts.now)),
      ),
    )
    .orderBy(asc(d.next_attempt_at))
    .limit(opts.limit)
    .for('update', { skipLocked: true });
  return db.update(d).set({ locked_until: opts.leaseUntil }).where(inArray(d.id, due)).returning();
}

export async function releaseDeliveries(db: Executor, ids: string[], leaseUntil: Date): Promise<void> {
  if (!ids.length) return;
  await db
    .update(d)
    .set({ locked_until: null })
    .where(and(inArray(d.id, ids), eq(d.locked_until, leaseUntil)));
}

/**
 * Records a batch of tries in one statement, each only while this sender still holds its lease.
 * A success keeps the provider and its message id (the JSON the sender put in `responseBody`).
 */
export async function recordDeliveryAttempts(db: Executor, outcomes: Outcome[]): Promise<Set<string>> {
  if (!outcomes.length) return new Set();
  const values = outcomes.map((o) => ({
    id: o.deliveryId,
    lease: o.leaseUntil,
    status: o.status === 'succeeded' ? 'sent' : o.status === 'retrying' ? 'pending' : 'dead',
    counted: o.counted,
    next_at: o.nextAttemptAt,
    error: o.status === 'succeeded' ? null : (o.error ?? 'not sent'),
    sent: o.status === 'succeeded' ? o.responseBody : null,
    at: o.finishedAt,
  }));
  const updated = await rows<{ id: string }>(
    db,
    sql`update notification_deliveries n set
          status = v.status,
          attempt_count = n.attempt_count + (case when v.counted then 1 else 0 end),
          next_attempt_at = v.next_at, last_error = v.error, locked_until = null, updated_at = v.at,
          sent_at = case when v.status = 'sent' then v.at else n.sent_at end,
          provider_id = coalesce((v.sent::jsonb)->>'provider', n.provider_id),
          provider_message_id = coalesce((v.sent::jsonb)->>'id', n.provider_message_id)
        from jsonb_to_recordset(${JSON.stringify(values)}::jsonb)
          as v(id text, lease timestamptz, status text, counted boolean, next_at timestamptz, error text, sent text, at timestamptz)
        where n.id = v.id and n.locked_until = v.lease
        returning n.id`,
  );
  return new Set(updated.map((r) => r.id));
}

export interface DeliveryFilters {
  status?: string[];
  template?: string[];
  to?: string;
  resource_id?: string;
}

function matching(f: DeliveryFilters): SQL | undefined {
  return and(
    f.status?.length ? inArray(d.status, f.status as DeliveryRow['status'][]) : undefined,
    f.template?.length ? inArray(d.template, f.template) : undefined,
    f.to ? eq(sql`lower(${d.to})`, f.to.toLowerCase()) : undefined,
    f.resource_id ? eq(d.resource_id, f.resource_id) : undefined,
  );
}

export async function listDeliveryRows(db: Executor, f: DeliveryFilters, page: Page): Promise<DeliveryRow[]> {
  return db
    .select()
    .from(d)
    .where(matching(f))
    .orderBy(desc(d.created_at), desc(d.id))
    .limit(page.limit)
    .offset(page.offset);
}

export async function countDeliveryRows(db: Executor, f: DeliveryFilters): Promise<number> {
  const [row] = await db.select({ n: count() }).from(d).where(matching(f));
  return Number(row.n);
}

export async function findDeliveryRow(db: Executor, id: string): Promise<DeliveryRow | undefined> {
  const [row] = await db.select().from(d).where(eq(d.id, id));
  return row;
}

/** Sends a pending or dead delivery again now (the admin's retry). */
export async function requeueDelivery(db: Executor, id: string, now: Date): Promise<DeliveryRow | undefined> {
  const [row] = await db
    .update(d)
    .set({ status: 'pending', next_attempt_at: now, locked_until: null, updated_at: now })
    .where(and(eq(d.id, id), inArray(d.status, ['pending', 'dead', 'not_sent'])))
    .returning();
  if (row) await db.execute(sql`select pg_notify(${NOTIFICATIONS_CHANNEL}, '')`);
  return row;
}
