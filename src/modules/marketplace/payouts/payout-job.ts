import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Config } from '../../../platform/config.ts';
import type { Ctx } from '../../../platform/context.ts';
import type { ScheduledJob } from '../../../platform/jobs/scheduled-job.ts';
import { stripeMoney, type StripeMoney } from '../sales/stripe-money.ts';
import { runPayouts, type PayoutRun } from './payouts.ts';
import * as q from './queries.ts';

/** How often each instance looks whether a period's run is due (or was left by a dead instance). */
const TICK_MS = 60_000;
/** Batches of RUN_LIMIT rows in one period's run, at most: a run that keeps finding work stops there. */
const MAX_BATCHES = 50;

export interface ScheduleOptions {
  /** The period (MARKETPLACE_PAYOUT_EVERY): runs start at multiples of it since the epoch, in UTC. */
  everyMs: number;
  /** How long a run holds the period without renewing (JOB_LEASE_MS). */
  leaseMs: number;
  /** Names this instance in the run's row. */
  owner: string;
}

export type ScheduledRun = PayoutRun & { period_start: Date; attempts: number };

/**
 * The scheduled payouts (marketplace role, with Stripe): every instance ticks, the first to claim
 * the current period's row runs it (payouts.ts: one transfer per sale, never twice), renewing its
 * lease before each sale, and marks it finished. A run left by an instance that died is taken
 * over once its lease ran out, by whichever instance ticks next, within the same period; the sales
 * left `transferring` are asked for again with the same idempotency key. Returns null when there
 * was nothing to do here (the period ran already, or another instance holds it).
 */
export async function runScheduledPayouts(
  ctx: Ctx,
  money: StripeMoney,
  o: ScheduleOptions,
): Promise<ScheduledRun | null> {
  const now = ctx.clock.now();
  const periodStart = new Date(Math.floor(now.getTime() / o.everyMs) * o.everyMs);
  const leaseEnd = () => new Date(ctx.clock.now().getTime() + o.leaseMs);
  const claimed = await q.claimPayoutPeriod(ctx.db, {
    period_start: periodStart,
    owner: o.owner,
    now,
    lease_until: leaseEnd(),
  });
  if (!claimed) return null;
  let held = true;
  const heartbeat = async () => {
    held = !!(await q.renewPayoutRun(ctx.db, periodStart, o.owner, leaseEnd()));
    return held;
  };
  const total: PayoutRun = { transferred: 0, reversed: 0, waiting: 0 };
  for (let i = 0; i < MAX_BATCHES && held; i++) {
    const run = await runPayouts(ctx, money, heartbeat);
    total.transferred += run.transferred;
    total.reversed += run.reversed;
    total.waiting = run.waiting;
    if (run.transferred + run.reversed === 0) break;
  }
  if (!held) {
    ctx.log.warn({ period: periodStart }, 'payout run taken over by another instance; stopped');
    return null;
  }
  await q.finishPayoutRun(ctx.db, periodStart, o.owner, { finished_at: ctx.clock.now(), ...total });
  ctx.log.info({ period: periodStart, ...total }, 'scheduled vendor payouts ran');
  return { ...total, period_start: periodStart, attempts: claimed.attempts };
}

/** The last 30 periods' runs, newest first (the operator's view). */
export function scheduledRuns(ctx: Ctx): Promise<q.PayoutRunRow[]> {
  return q.listPayoutRuns(ctx.db, 30);
}

/** The job workers.ts runs on a marketplace with Stripe and a schedule (MARKETPLACE_PAYOUT_EVERY not `off`). */
export function payoutsJob(config: Config): ScheduledJob | null {
  if (config.role !== 'marketplace' || !config.stripe || !config.payoutEveryMs) return null;
  const money = stripeMoney(config.stripe);
  const options: ScheduleOptions = {
    everyMs: config.payoutEveryMs,
    leaseMs: config.jobLeaseMs,
    owner: `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`,
  };
  return {
    name: 'marketplace-payouts',
    everyMs: Math.min(TICK_MS, config.payoutEveryMs),
    runAtStart: true,
    async run(ctx) {
      const run = await runScheduledPayouts(ctx, money, options);
      return run ? run.transferred + run.reversed : 0;
    },
  };
}
