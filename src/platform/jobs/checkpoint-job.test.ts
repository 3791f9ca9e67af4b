import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { rows } from '../db/database.ts';
import { pgliteCheckpointJob } from './checkpoint-job.ts';

/** The embedded database's checkpointer: a crash replays only the WAL written since its last run. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const redo = async () =>
  (await rows<{ lsn: string }>(t.database.db, sql`select redo_lsn::text as lsn from pg_control_checkpoint()`))[0].lsn;
const insertLsn = async () =>
  (await rows<{ lsn: string }>(t.database.db, sql`select pg_current_wal_insert_lsn()::text as lsn`))[0].lsn;
const lsnAtLeast = async (a: string, b: string) =>
  (await rows<{ ok: boolean }>(t.database.db, sql`select ${a}::pg_lsn >= ${b}::pg_lsn as ok`))[0].ok;

it('checkpoints once a megabyte of WAL was written since the last checkpoint, and not when nothing was', async (test) => {
  // PostgreSQL has its own checkpointer: workers.ts runs this job on PGlite only.
  if (t.database.kind !== 'pglite') test.skip();
  const job = pgliteCheckpointJob();
  const ctx = { db: t.database.db, clock: t.clock, log: t.app.log };
  await job.run(ctx); // whatever the app's start wrote
  expect(await job.run(ctx)).toBe(0);

  await t.database.db.execute(sql`create table checkpoint_job_filler (body text)`);
  await t.database.db.execute(
    sql`insert into checkpoint_job_filler select repeat(md5(g::text), 8) from generate_series(1, 8000) g`,
  );
  const written = await insertLsn();
  expect(await lsnAtLeast(await redo(), written)).toBe(false);

  expect(await job.run(ctx)).toBe(1);
  // The redo point moved past every write: a crash now would replay none of them.
  expect(await lsnAtLeast(await redo(), written)).toBe(true);
  await t.database.db.execute(sql`drop table checkpoint_job_filler`);
});
