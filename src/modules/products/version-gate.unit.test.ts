import { describe, expect, it } from 'vitest';
import { VersionGate } from './version-gate.ts';

/** One turn of the event loop: the gate starts a waiting read in its check phase (setImmediate). */
const turn = async () => {
  await new Promise((r) => setImmediate(r));
  await new Promise((r) => setImmediate(r));
};

/** A version source whose reads end when the test says, recording when each one started. */
function source() {
  const reads: { resolve(): void; reject(e: Error): void }[] = [];
  let value = 0;
  return {
    reads,
    /** What the database holds; a read returns the value at the moment it STARTED (its snapshot). */
    commit: () => ++value,
    read: () =>
      new Promise<number>((resolve, reject) => {
        const seen = value;
        reads.push({ resolve: () => resolve(seen), reject });
      }),
    /** Ends read `i` with what it saw at its start, and lets a next read start. */
    end: async (i: number) => {
      reads[i].resolve();
      await turn();
    },
  };
}

describe('VersionGate', () => {
  it('answers a caller from a read started after it arrived; callers arriving meanwhile share the next read', async () => {
    const db = source();
    const gate = new VersionGate(db.read);
    const first = gate.next();
    expect(db.reads).toHaveLength(1);

    db.commit(); // a writer's commit returns, then two requests arrive while read 0 is in flight
    const second = gate.next();
    const third = gate.next();
    expect(db.reads).toHaveLength(1); // one read at a time

    await db.end(0);
    expect(await first).toBe(0);
    expect(db.reads).toHaveLength(2); // the next read started when the first ended, for both waiters
    const late: number[] = [];
    void second.then((v) => late.push(v));
    await new Promise((r) => setImmediate(r));
    expect(late).toEqual([]); // not answered by the read that started before they arrived

    await db.end(1);
    expect([await second, await third]).toEqual([1, 1]);
    expect(db.reads).toHaveLength(2); // nobody waiting: no read

    const fourth = gate.next(); // idle gate: a read starts at once
    expect(db.reads).toHaveLength(3);
    await db.end(2);
    expect(await fourth).toBe(1);
  });

  it('a caller arriving after a read ended, before the next one started, shares that next read', async () => {
    const db = source();
    const gate = new VersionGate(db.read);
    const first = gate.next();
    const waiter = gate.next();
    db.reads[0].resolve();
    expect(await first).toBe(0); // read 0 has ended; the next read waits for the check phase
    db.commit();
    const late = gate.next(); // arrives now, with the answer: the next read must start after it
    expect(db.reads).toHaveLength(1);
    await turn();
    expect(db.reads).toHaveLength(2); // one read for both
    await db.end(1);
    expect([await waiter, await late]).toEqual([1, 1]);
  });

  it('fails the callers of a failed read, and the next caller reads again', async () => {
    const db = source();
    const gate = new VersionGate(db.read);
    const first = gate.next();
    const waiter = gate.next();
    db.reads[0].reject(new Error('connection lost'));
    await expect(first).rejects.toThrow('connection lost');
    await turn();
    db.reads[1].reject(new Error('still down'));
    await expect(waiter).rejects.toThrow('still down');
    await turn();
    const again = gate.next();
    expect(db.reads).toHaveLength(3);
    await db.end(2);
    expect(await again).toBe(0);
  });
});
