import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { rows } from '../db/database.ts';
import { transaction } from '../db/prepared.ts';
import { enqueueJob } from './queue.ts';
import { JobFailure, JobRunner } from './runner.ts';
import { jobFiles, jobs } from './tables.ts';

/** The job runner's promises: one owner per job, progress only under the lease, failures kept apart. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const runner = (owner: string) =>
  new JobRunner({ database: t.database, clock: t.clock, log: t.app.log, owner, leaseMs: 60_000 });

const job = async (id: string) => (await t.database.db.select().from(jobs).where(eq(jobs.id, id)))[0];

it('a runner whose lease was taken over cannot commit its batch: the batch rolls back, the job stays the other’s', async () => {
  const { id } = await enqueueJob(t.database.db, { type: 'test_steal', input: {}, now: t.clock.now() });
  const r = runner('me').register({
    type: 'test_steal',
    async run(ctx) {
      // Another instance claims the job meanwhile (this one looked dead to it).
      await t.database.db.update(jobs).set({ lease_owner: 'someone-else' }).where(eq(jobs.id, id));
      await transaction(ctx.db, async (tx) => {
        await ctx.saveFile(tx, 'result', 'half.csv', 'text/csv', 'a batch that must not land');
        await ctx.progress(tx, 10, 10);
      });
      return { wrote: true };
    },
  });
  await r.drain();
  const after = await job(id);
  expect(after).toMatchObject({ status: 'running', lease_owner: 'someone-else', progress_done: 0 });
  expect(await t.database.db.select().from(jobFiles).where(eq(jobFiles.job_id, id))).toEqual([]);
});

it('a JobFailure fails the job at once; another error is retried later, then fails after the last attempt', async () => {
  const failing = await enqueueJob(t.database.db, { type: 'test_fail', input: {}, now: t.clock.now() });
  const flaky = await enqueueJob(t.database.db, { type: 'test_flaky', input: {}, now: t.clock.now() });
  let flakyRuns = 0;
  const r = new JobRunner({ database: t.database, clock: t.clock, log: t.app.log, owner: 'me', maxAttempts: 2 })
    .register({
      type: 'test_fail',
      run: async () => {
        throw new JobFailure('the plan is malformed');
      },
    })
    .register({
      type: 'test_flaky',
      run: async () => {
        flakyRuns++;
        throw new Error('database went away');
      },
    });
  await r.drain();
  expect(await job(failing.id)).toMatchObject({ status: 'failed', error: 'the plan is malformed', attempts: 1 });
  expect(await job(flaky.id)).toMatchObject({ status: 'pending', error: 'database went away', lease_owner: null });
  t.clock.advance(60_000);
  await r.drain();
  expect(flakyRuns).toBe(2);
  expect(await job(flaky.id)).toMatchObject({ status: 'failed', attempts: 2 });
  const [{ n }] = await rows<{ n: number }>(
    t.database.db,
    sql`select count(*)::int as n from jobs where lease_owner is not null`,
  );
  expect(n).toBe(1); // only the stolen job of the first test
});
