import { sql } from 'drizzle-orm';
import type { Ctx } from '../../platform/context.ts';
import { rows, type Executor } from '../../platform/db/database.ts';
import type { ScheduledJob } from '../../platform/jobs/scheduled-job.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Deletes up to `limit` files of jobs that ended before `before` (an import's upload and error
 * report, an export's CSV), oldest first, and as many CSVs uploaded before it for an import that
 * never took them, and answers how many. An import previewed but never
 * confirmed by then is canceled with its file: confirming it later answers that it is no longer
 * awaiting. Files of pending and running jobs stay, however old. The job rows stay too (the Jobs
 * list keeps its history); their `files` are then empty.
 */
export async function deleteExpiredJobFiles(db: Executor, now: Date, before: Date, limit: number): Promise<number> {
  const at = before.toISOString();
  await db.execute(sql`update jobs set status = 'canceled', error = 'not confirmed in time: its file was deleted',
      finished_at = ${now.toISOString()}::timestamptz, updated_at = ${now.toISOString()}::timestamptz
    where id = any(array(select id from jobs where status = 'awaiting_confirmation'
      and created_at < ${at}::timestamptz order by created_at limit ${limit} for update skip locked))`);
  const deleted = await rows<{ id: string }>(
    db,
    sql`delete from job_files where id = any(array(
          select f.id from job_files f join jobs j on j.id = f.job_id
          where j.status in ('succeeded', 'failed', 'canceled')
            and (coalesce(j.finished_at, j.updated_at) < ${at}::timestamptz
              -- an unconfirmed import canceled above (or earlier): its age is the upload's
              or (j.status = 'canceled' and j.started_at is null and j.created_at < ${at}::timestamptz))
          order by f.created_at limit ${limit} for update of f skip locked))
        returning id`,
  );
  const unused = await rows<{ id: string }>(
    db,
    sql`delete from import_uploads where id = any(array(
          select id from import_uploads where created_at < ${at}::timestamptz
          order by created_at limit ${limit} for update skip locked))
        returning id`,
  );
  return deleted.length + unused.length;
}

/**
 * Keeps the files of background jobs for `days` after the job ended (JOB_FILES_RETENTION_DAYS,
 * default 7): uploads for imports and exported CSVs are whole catalogs and customer lists, which
 * should not stay in the database for ever. Hourly and at start, by the injectable clock. Null
 * when retention is off (days = 0).
 */
export function jobFileRetentionJob(days: number, batchSize = 100): ScheduledJob | null {
  if (days <= 0) return null;
  return {
    name: 'job-file-retention',
    everyMs: 60 * 60 * 1000,
    runAtStart: true,
    async run(ctx: Ctx) {
      const now = ctx.clock.now();
      const before = new Date(now.getTime() - days * DAY_MS);
      let total = 0;
      for (;;) {
        const deleted = await deleteExpiredJobFiles(ctx.db, now, before, batchSize);
        total += deleted;
        if (deleted < batchSize) break;
      }
      if (total) ctx.log.info({ deleted: total, before }, 'deleted job files past retention');
      return total;
    },
  };
}
