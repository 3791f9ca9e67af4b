import { and, asc, eq, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.ts';
import { marketplaceCallbacks, type CallbackStatus } from './tables.ts';

export type CallbackRow = typeof marketplaceCallbacks.$inferSelect;

/** NOTIFY channel that wakes callback senders when a completion commits. */
export const CALLBACK_CHANNEL = 'emporium_marketplace_callbacks';

/** One callback per checkout (unique), however often the completion is reported. */
export async function insertCallbackOnce(db: Executor, row: typeof marketplaceCallbacks.$inferInsert): Promise<void> {
  await db.insert(marketplaceCallbacks).values(row).onConflictDoNothing({ target: marketplaceCallbacks.checkout_session_id });
  await db.execute(sql`select pg_notify(${CALLBACK_CHANNEL}, '')`);
}

/**
 * Leases up to `limit` due callbacks, oldest due first. SKIP LOCKED: senders on other instances
 * never take the same row; an expired lease (a crashed sender) makes a row claimable again.
 */
export async function claimDueCallbacks(db: Executor, opts: { now: Date; leaseUntil: Date; limit: number }): Promise<CallbackRow[]> {
  const c = marketplaceCallbacks;
  const due = db
    .select({ id: c.id })
    .from(c)
    .where(and(eq(c.status, 'pending'), lte(c.next_attempt_at, opts.now), or(isNull(c.locked_until), lt(c.locked_until, opts.now))))
    .orderBy(asc(c.next_attempt_at))
    .limit(opts.limit)
    .for('update', { skipLocked: true });
  return db.update(c).set({ locked_until: opts.leaseUntil }).where(inArray(c.id, due)).returning();
}

export interface CallbackOutcome {
  status: CallbackStatus;
  nextAttemptAt: Date | null;
  statusCode: number | null;
  error: string | null;
  at: Date;
}

/** Records an attempt, only while this sender still holds the lease it claimed with. */
export async function recordCallbackAttempt(db: Executor, id: string, leaseUntil: Date, o: CallbackOutcome): Promise<boolean> {
  const c = marketplaceCallbacks;
  const updated = await db
    .update(c)
    .set({
      status: o.status,
      attempt_count: sql`${c.attempt_count} + 1`,
      next_attempt_at: o.nextAttemptAt,
      last_status_code: o.statusCode,
      last_error: o.error,
      locked_until: null,
      updated_at: o.at,
    })
    .where(and(eq(c.id, id), eq(c.locked_until, leaseUntil)))
    .returning({ id: c.id });
  return updated.length > 0;
}

/** Gives a claimed callback back unattempted (the sender is stopping). */
export async function releaseCallback(db: Executor, id: string, leaseUntil: Date): Promise<void> {
  const c = marketplaceCallbacks;
  await db.update(c).set({ locked_until: null }).where(and(eq(c.id, id), eq(c.locked_until, leaseUntil)));
}
