import type { ScheduledJob } from '../../platform/jobs/scheduled-job.ts';
import { pruneAuditEntries } from './queries.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Keeps the audit log to the last `days` (AUDIT_RETENTION_DAYS, default 365): every hour, and at
 * start, deletes older entries in batches by the injectable clock. The only deleter the log's
 * append-only trigger lets through. Null when retention is off (days = 0).
 */
export function auditRetentionJob(days: number, batchSize = 500): ScheduledJob | null {
  if (days <= 0) return null;
  return {
    name: 'audit-retention',
    everyMs: 60 * 60 * 1000,
    runAtStart: true,
    async run(ctx) {
      const before = new Date(ctx.clock.now().getTime() - days * DAY_MS);
      let total = 0;
      for (;;) {
        const deleted = await pruneAuditEntries(ctx.db, before, batchSize);
        total += deleted;
        if (deleted < batchSize) break;
      }
      if (total) ctx.log.info({ deleted: total, before }, 'deleted audit entries past retention');
      return total;
    },
  };
}
