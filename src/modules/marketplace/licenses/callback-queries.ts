import { and, asc, eq, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import { rows, type Executor } from '../../../platform/db/database.ts';
import type { Outcome } from '../../../platform/delivery/client.ts';
import { marketplaceCallbacks } from './tables.ts';

export type CallbackRow = typeof marketplaceCallbacks.$inferSelect;

/** NOTIFY channel that wakes callback senders when a completion commits. */
export const CALLBACK_CHANNEL = 'emporium_marketplace_callbacks';

/** One callback per checkout (unique), however often the completion is reported. */
export async function insertCallbackOnce(db: Executor, row: typeof marketplaceCallbacks.$inferInsert): Promise<void> {
  await db
    .insert(marketplaceCallbacks)
    .values(row)
    .onConflictDoNothing({ target: marketplaceCallbacks.checkout_session_id });
  await db.execute(sql`select pg_notify(${CALLBACK_CHANNEL}, '')`);
}

/**
 * Leases up to `limit` due callbacks, oldest due first. SKIP LOCKED: senders on other instances
 * never take the same row; an expired lease (a crashed sender) makes a row claimable again.
 */
export async function claimDueCallbacks(
  db: Executor,
  opts: { now: Date; leaseUntil: Date; limit: number },
): Promise<CallbackRow[]> {
  const c = marketplaceCallbacks;
  const due = db
    .select({ id: c.id })
    .from(c)
    .where(
      and(
        eq(c.status, 'pending'),
        lte(c.next_attempt_at, opts.now),
        or(isNull(c.locked_until), lt(c.locked_until, opts.now)),
      ),
    )
    .orderBy(asc(c.next_attempt_at))
    .limit(opts.limit)
    .for('update', { skipLocked: true });
  return db.update(c).set({ locked_until: opts.leaseUntil }).where(inArray(c.id, due)).returning();
}

/**
 * Records a batch of attempts in one statement, each only while this sender still holds the
 * lease it claimed with. A callback waiting for its next try stays `pending`; `last_error`
 * says why the last try failed. Returns the ids it updated.
 */
export async function recordCallbackAttempts(db: Executor, outcomes: Outcome[]): Promise<Set<string>> {
  if (!outcomes.length) return new Set();
  const values = outcomes.map((o) => ({
    id: o.deliveryId,
    lease: o.leaseUntil,
    status: o.status === 'retrying' ? 'pending' : o.status,
    next_at: o.nextAttemptAt,
    code: o.statusCode,
    error: o.status === 'succeeded' ? null : (o.error ?? `HTTP ${o.statusCode}`),
    at: o.finishedAt,
  }));
  const updated = await rows<{ id: string }>(
    db,
    sql`update marketplace_callbacks c set
          status = v.status, attempt_count = c.attempt_count + 1, next_attempt_at = v.next_at,
          last_status_code = v.code, last_error = v.error, locked_until = null, updated_at = v.at
        from jsonb_to_recordset(${JSON.stringify(values)}::jsonb)
          as v(id text, lease timestamptz, status text, next_at timestamptz, code int, error text, at timestamptz)
        where c.id = v.id and c.locked_until = v.lease
        returning c.id`,
  );
  return new Set(updated.map((r) => r.id));
}

/** Gives claimed callbacks back unattempted (the sender is stopping, or the pool had no room in time). */
export async function releaseCallbacks(db: Executor, ids: string[], leaseUntil: Date): Promise<void> {
  if (!ids.length) return;
  const c = marketplaceCallbacks;
  await db
    .update(c)
    .set({ locked_until: null })
    .where(and(inArray(c.id, ids), eq(c.locked_until, leaseUntil)));
}
