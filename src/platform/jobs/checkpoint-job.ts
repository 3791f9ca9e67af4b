import { sql } from 'drizzle-orm';
import { rows } from '../db/database.ts';
import type { ScheduledJob } from './scheduled-job.ts';

/** PostgreSQL's default `checkpoint_timeout`: what its checkpointer would do. */
export const PGLITE_CHECKPOINT_EVERY_MS = 5 * 60_000;
/** Less WAL than this since the last checkpoint is not worth one (a quiet shop writes a few records a minute). */
const MIN_WAL_BYTES = 1024 * 1024;

/**
 * The embedded database's checkpointer. PGlite runs PostgreSQL as a single backend with no
 * background processes, so nothing checkpoints on a timer: only a clean close, the end of a
 * crash recovery, or 1 GB of WAL (`max_wal_size`). A server killed (`kill -9`, the OOM killer, a
 * power loss) after hours of writes then replays all of them at its next open, on the main thread
 * in wasm: 22 MB of WAL added 177 ms to an open measured on the 2-core machine (docs/benchmarks.md),
 * so up to many seconds before the first request. Checkpointing every 5 minutes when WAL was written keeps that replay to the
 * last few minutes' writes, as PostgreSQL's own checkpointer does. Durability is unchanged: a
 * commit is durable by its WAL, with or without a checkpoint after it.
 */
export function pgliteCheckpointJob(everyMs = PGLITE_CHECKPOINT_EVERY_MS): ScheduledJob {
  return {
    name: 'pglite-checkpoint',
    everyMs,
    async run(ctx) {
      const [since] = await rows<{ bytes: number }>(
        ctx.db,
        sql`select (pg_current_wal_insert_lsn() - redo_lsn)::int8 as bytes from pg_control_checkpoint()`,
      );
      if (!since || since.bytes < MIN_WAL_BYTES) return 0;
      await ctx.db.execute(sql`checkpoint`);
      return 1;
    },
  };
}
