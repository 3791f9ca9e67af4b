import { describe, expect, it } from 'vitest';
import type { Db } from './database.ts';
import { lsnValue, ReadReplicas, replicaCannotAnswer } from './replicas.ts';

/** A replica whose replayed position (or failure) the test sets; `poll()` is driven by hand, no timers. */
function setup(maxLagMs: number) {
  let primary = '0/100';
  const replayed: (string | Error)[] = ['0/100', '0/100'];
  const dbs = [{ name: 'r0' }, { name: 'r1' }] as unknown as Db[];
  let opened = 0;
  const set = new ReadReplicas<Db>(
    ['postgres://u:secret@replica-a:5433/shop', 'postgres://replica-b/shop'],
    async () => primary,
    () => {
      const i = opened++;
      return {
        db: dbs[i],
        pool: {
          query: async () => {
            const r = replayed[i];
            if (r instanceof Error) throw r;
            return { rows: [{ lsn: r }] };
          },
          connect: async () => ({}),
          end: async () => {},
          on: () => {},
        },
      };
    },
    { maxLagMs, pollMs: 200 },
  );
  const poll = () => (set as unknown as { poll(): Promise<void> }).poll();
  return {
    set,
    dbs,
    poll,
    setPrimary: (l: string) => {
      primary = l;
    },
    replayed,
  };
}

describe('read replicas', () => {
  it('compares WAL positions as 64-bit numbers', () => {
    expect(lsnValue('1/0') > lsnValue('0/FFFFFFFF')).toBe(true);
    expect(lsnValue('0/A') === 10n).toBe(true);
  });

  it('uses none before the first poll, then both in turn; names carry no credentials', async () => {
    const { set, dbs, poll } = setup(1_000);
    expect(set.pick()).toBeUndefined();
    await poll();
    const picks = [set.pick(), set.pick(), set.pick()];
    expect(picks).toEqual([dbs[0], dbs[1], dbs[0]]);
    expect(set.status()).toEqual([
      { name: 'replica-a:5433/shop', in_rotation: true, lag_ms: 0 },
      { name: 'replica-b:5432/shop', in_rotation: true, lag_ms: 0 },
    ]);
  });

  it('a replica further behind than the limit, or failing, leaves the rotation and comes back caught up', async () => {
    const { set, dbs, poll, setPrimary, replayed } = setup(0);
    await poll();
    setPrimary('0/200'); // replica 0 stays at 0/100: behind since this poll
    replayed[1] = '0/200';
    await poll();
    await poll(); // now measurably behind (> 0 ms)
    expect(set.status()[0].in_rotation).toBe(false);
    expect(set.status()[0].lag_ms).toBeGreaterThan(0);
    expect([set.pick(), set.pick()]).toEqual([dbs[1], dbs[1]]);
    replayed[1] = new Error('connect ECONNREFUSED');
    await poll();
    expect(set.pick()).toBeUndefined();
    expect(set.status()[1]).toMatchObject({ in_rotation: false, lag_ms: null, error: 'connect ECONNREFUSED' });
    replayed[0] = '0/200';
    replayed[1] = '0/200';
    await poll();
    expect(set.status().map((s) => s.in_rotation)).toEqual([true, true]);
  });

  it('for the answer cache, only a replica that has everything the primary had after `since`', async () => {
    const { set, dbs, poll, setPrimary, replayed } = setup(60_000);
    await poll();
    const since = performance.now();
    expect(set.pick(since)).toBeUndefined(); // the last poll started before `since`
    setPrimary('0/300');
    replayed[0] = '0/300';
    await poll();
    expect(set.pick(since)).toBe(dbs[0]); // replica 1 is within the lag limit, but not caught up
    expect(set.pick(since)).toBe(dbs[0]);
    expect(set.pick()).toBeDefined();
  });

  it('tells a replica that cannot answer from an error of the query itself', () => {
    for (const err of [
      { code: 'ECONNREFUSED', message: 'connect ECONNREFUSED' },
      { code: '57P01', message: 'terminating connection due to administrator command' },
      { code: '57P03', message: 'the database system is starting up' },
      { code: '25006', message: 'cannot execute INSERT in a read-only transaction' },
      { code: '40001', message: 'canceling statement due to conflict with recovery' },
      { message: 'Connection terminated unexpectedly' },
      { message: 'timeout exceeded when trying to connect' },
    ])
      expect(replicaCannotAnswer(err), err.message).toBe(true);
    for (const err of [
      { code: '42703', message: 'column "x" does not exist' },
      { code: '23505', message: 'dup' },
      null,
    ])
      expect(replicaCannotAnswer(err)).toBe(false);
  });
});
