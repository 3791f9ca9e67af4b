import type { OutcomeStatus } from './client.ts';

/** Delays after the 1st…5th failed attempt: 1m, 5m, 30m, 2h, 12h (a receiver down overnight still gets it), then dead-letter. */
export const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 12 * 3_600_000] as const;

/**
 * When to try again after `failedAttempts` failures (counting the one that just happened),
 * measured from `now`, the time of that failure; null when the schedule is used up (dead).
 */
export function nextRetryAt(failedAttempts: number, now: Date): Date | null {
  if (!Number.isInteger(failedAttempts) || failedAttempts < 1)
    throw new RangeError(`failedAttempts must be ≥ 1, got ${failedAttempts}`);
  const delay = RETRY_DELAYS_MS[failedAttempts - 1];
  return delay === undefined ? null : new Date(now.getTime() + delay);
}

/**
 * What an attempt that ended at `now` means for its delivery: a 2xx answer succeeded; anything
 * else (another status, or no answer: `statusCode` null) is retried on the plan, counting the
 * `attemptsBefore` already made, or is dead once the plan is used up.
 */
export function verdictOf(
  statusCode: number | null,
  attemptsBefore: number,
  now: Date,
): { status: OutcomeStatus; nextAttemptAt: Date | null } {
  return verdictAfter(statusCode !== null && statusCode >= 200 && statusCode < 300, attemptsBefore, now);
}

/** The same plan for any kind of attempt: `ok` succeeded, else retried on the plan or dead. */
export function verdictAfter(
  ok: boolean,
  attemptsBefore: number,
  now: Date,
): { status: OutcomeStatus; nextAttemptAt: Date | null } {
  if (ok) return { status: 'succeeded', nextAttemptAt: null };
  const next = nextRetryAt(attemptsBefore + 1, now);
  return next ? { status: 'retrying', nextAttemptAt: next } : { status: 'dead', nextAttemptAt: null };
}
