import { inTx, type Ctx } from '../../platform/context.ts';
import { enqueueJob } from '../../platform/jobs/queue.ts';

/** Queues an export of what a list's filters match (the page fields are dropped): `{ transaction_id }`, as Medusa. */
export async function startExport(ctx: Ctx, type: string, query: Record<string, unknown>) {
  const { limit: _l, offset: _o, fields: _f, ...filters } = query;
  const job = await inTx(ctx, ({ tx, clock }) =>
    enqueueJob(tx, { type, input: { filters }, createdBy: ctx.actor?.id ?? null, now: clock.now() }),
  );
  return { transaction_id: job.id };
}
