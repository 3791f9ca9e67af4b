import { analyzeStaleTables } from '../db/statistics.ts';
import type { ScheduledJob } from './scheduled-job.ts';

/**
 * Keeps planner statistics current (see db/statistics.ts): a pass when the workers start (after a
 * restart, a crash or an import while the server was down), then every `everyMs`. Migrations that
 * changed the schema are followed by a pass of their own (database.ts).
 */
export function statisticsJob(everyMs: number): ScheduledJob {
  return {
    name: 'analyze-stale-tables',
    everyMs,
    runAtStart: true,
    async run(ctx) {
      const tables = await analyzeStaleTables(ctx.db);
      if (tables.length) ctx.log.debug({ tables }, 'analyzed tables whose statistics were stale');
      return tables.length;
    },
  };
}
