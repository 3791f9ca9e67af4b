import { analyzeStaleTables } from '../db/statistics.ts';
import type { ScheduledJob } from './scheduled-job.ts';

/** Keeps planner statistics current (see db/statistics.ts); the first pass runs after migrations. */
export function statisticsJob(everyMs: number): ScheduledJob {
  return {
    name: 'analyze-stale-tables',
    everyMs,
    async run(ctx) {
      const tables = await analyzeStaleTables(ctx.db);
      if (tables.length) ctx.log.debug({ tables }, 'analyzed tables whose statistics were stale');
      return tables.length;
    },
  };
}
