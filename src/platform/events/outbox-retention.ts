import { sql } from 'drizzle-orm';
import type { Ctx } from '../context.ts';
import { rows, type Executor } from '../db/database.ts';
import type { ScheduledJob } from '../jobs/scheduled-job.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Deletes up to `limit` events dispatched before `before`, oldest first (a range of
 * outbox_dispatched_idx), and answers how many. Rows another instance's run holds are skipped.
 * Nothing reads a dispatched row again: the dispatcher's durable sinks copied what they send when
 * they marked it dispatched (webhook_payloads for webhooks, notification_deliveries for messages),
 * in-process subscribers ran once and are not retried, and no table references the outbox.
 */
export async function deleteDispatchedEvents(db: Executor, before: Date, limit: number): Promise<number> {
  const deleted = await rows<{ id: string }>(
    db,
    sql`delete from outbox where id = any(array(
          select id from outbox
          where dispatched_at is not null and dispatched_at < ${before.toISOString()}::timestamptz
          order by dispatched_at limit ${limit}
          for update skip locked))
        returning id`,
  );
  return deleted.length;
}

export interface OutboxRetention {
  /** Events dispatched more than this many days ago are deleted; 0 keeps every event. */
  days: number;
  everyMs?: number;
  /** Rows per statement: a large backlog goes in many short transactions, not one long one. */
  batchSize?: number;
  /** Run VACUUM after deleting: PGlite has no autovacuum, and without it the space is never reused. */
  vacuum?: boolean;
}

/**
 * Keeps the outbox to the events of the last `days` (OUTBOX_RETENTION_DAYS): every hour, and at
 * start, deletes dispatched events older than that in batches, by the injectable clock. Pending
 * events stay however old they are. Null when retention is off (days = 0).
 */
export function outboxRetentionJob(opts: OutboxRetention): ScheduledJob | null {
  if (opts.days <= 0) return null;
  const batchSize = opts.batchSize ?? 500;
  return {
    name: 'outbox-retention',
    everyMs: opts.everyMs ?? 60 * 60 * 1000,
    runAtStart: true,
    async run(ctx: Ctx) {
      const before = new Date(ctx.clock.now().getTime() - opts.days * DAY_MS);
      let total = 0;
      for (;;) {
        const deleted = await deleteDispatchedEvents(ctx.db, before, batchSize);
        total += deleted;
        if (deleted < batchSize) break;
      }
      if (total && opts.vacuum) await ctx.db.execute(sql`vacuum outbox`);
      if (total) ctx.log.info({ deleted: total, before }, 'deleted dispatched outbox events past retention');
      return total;
    },
  };
}
