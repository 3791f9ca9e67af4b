import type { Ctx, TxCtx } from '../../platform/context.ts';
import type { Executor } from '../../platform/db/database.ts';

/** The caller's transaction when there is one, else the pool: on PGlite, touching `db` inside a transaction deadlocks. */
export function executor(ctx: Ctx): Executor {
  return (ctx as Partial<TxCtx>).tx ?? ctx.db;
}
