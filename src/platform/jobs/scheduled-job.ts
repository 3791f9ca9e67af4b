import type { Ctx } from '../context.ts';

/**
 * A periodic job as data: src/workers.ts runs `run` every `everyMs` on each instance (and once at
 * start when `runAtStart`). Jobs claim their rows with SKIP LOCKED, so instances may overlap.
 */
export interface ScheduledJob {
  name: string;
  everyMs: number;
  runAtStart?: boolean;
  /** Returns how many items it handled (for logs and tests). */
  run(ctx: Ctx): Promise<number>;
}
