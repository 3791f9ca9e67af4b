import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../src/platform/db/database.ts';
import { analyzeStaleTables, staleTables } from '../src/platform/db/statistics.ts';
import { statisticsJob } from '../src/platform/jobs/statistics-job.ts';
import { startTestApp, type TestApp } from './app.ts';

let t: TestApp;
const table = `stat_probe_${process.pid}`;
beforeAll(async () => {
  t = await startTestApp();
  await t.database.db.execute(sql.raw(`create table ${table} (id int primary key, note text)`));
});
afterAll(async () => {
  await t.database.db.execute(sql.raw(`drop table if exists ${table}`));
  await t.close();
});

const insert = (from: number, to: number) =>
  t.database.db.execute(sql.raw(`insert into ${table} select g, 'row ' || g from generate_series(${from}, ${to}) g`));
// Activity counters reach pg_stat_user_tables at most once a second unless a flush is forced.
const flushStats = async () => {
  await t.database.db.execute(sql`select pg_stat_force_next_flush()`);
  await t.database.db.execute(sql`select 1`);
};
const reltuples = async () =>
  (
    await rows<{ n: number }>(
      t.database.db,
      sql.raw(`select reltuples::int as n from pg_class where relname = '${table}'`),
    )
  )[0].n;

describe('statistics without an operator', () => {
  it('analyzes a table that was never analyzed, then only once it changed by more than 50 rows + 10 %', async () => {
    expect(await staleTables(t.database.db)).not.toContain(table); // empty: nothing to learn
    await insert(1, 400);
    await flushStats();
    expect(await staleTables(t.database.db)).toContain(table);
    expect(await reltuples()).toBe(-1);

    expect(await analyzeStaleTables(t.database.db)).toContain(table);
    expect(await reltuples()).toBe(400);
    expect(await staleTables(t.database.db)).not.toContain(table);

    await insert(401, 480); // 80 changes: below 50 + 40
    await flushStats();
    expect(await staleTables(t.database.db)).not.toContain(table);

    await insert(481, 600); // 200 changes
    await flushStats();
    expect(await staleTables(t.database.db)).toContain(table);
    const job = statisticsJob(60_000);
    expect(await job.run(t.ctx)).toBeGreaterThanOrEqual(1);
    expect(await reltuples()).toBe(600);
    expect(await staleTables(t.database.db)).not.toContain(table);
  });

  it('runs as one of every instance’s periodic jobs, on ANALYZE_CHECK_MS', () => {
    expect(t.config.analyzeCheckMs).toBe(15_000);
    expect(statisticsJob(t.config.analyzeCheckMs)).toMatchObject({ name: 'analyze-stale-tables', everyMs: 15_000 });
  });
});
