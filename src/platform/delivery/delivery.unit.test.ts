import { describe, expect, it } from 'vitest';
import { Backlog } from './backlog.ts';
import type { Outcome } from './client.ts';
import { OutcomeBatcher } from './outcome-batcher.ts';
import { nextRetryAt, verdictOf } from './retry-plan.ts';
import { isPrivateAddress, refusePrivateLiteral } from './url-guard.ts';

describe('nextRetryAt', () => {
  const now = new Date('2026-03-01T10:00:00.000Z');
  it.each([
    [1, '2026-03-01T10:01:00.000Z'],
    [2, '2026-03-01T10:05:00.000Z'],
    [3, '2026-03-01T10:30:00.000Z'],
    [4, '2026-03-01T12:00:00.000Z'],
    [5, '2026-03-01T22:00:00.000Z'],
  ])('after failure %i → %s', (n, at) => expect(nextRetryAt(n, now)?.toISOString()).toBe(at));

  it('gives up after the fifth retry failed', () => {
    expect(nextRetryAt(6, now)).toBeNull();
    expect(nextRetryAt(60, now)).toBeNull();
  });

  it('refuses a count below one', () => {
    expect(() => nextRetryAt(0, now)).toThrow(RangeError);
    expect(() => nextRetryAt(1.5, now)).toThrow(RangeError);
  });
});

describe('verdictOf', () => {
  const now = new Date('2026-03-01T10:00:00.000Z');

  it.each([200, 204, 299])('counts %i as succeeded, whatever the attempts before', (code) => {
    expect(verdictOf(code, 0, now)).toEqual({ status: 'succeeded', nextAttemptAt: null });
    expect(verdictOf(code, 9, now)).toEqual({ status: 'succeeded', nextAttemptAt: null });
  });

  it.each([null, 199, 302, 404, 500])('retries %s on the plan, counting this failure', (code) => {
    expect(verdictOf(code, 0, now)).toEqual({
      status: 'retrying',
      nextAttemptAt: new Date('2026-03-01T10:01:00.000Z'),
    });
    expect(verdictOf(code, 4, now)).toEqual({
      status: 'retrying',
      nextAttemptAt: new Date('2026-03-01T22:00:00.000Z'),
    });
  });

  it('is dead once the plan is used up (the sixth failure), and again after a manual retry fails', () => {
    expect(verdictOf(500, 5, now)).toEqual({ status: 'dead', nextAttemptAt: null });
    expect(verdictOf(null, 6, now)).toEqual({ status: 'dead', nextAttemptAt: null });
  });
});

describe('isPrivateAddress', () => {
  it.each([
    '127.0.0.1',
    '127.255.0.9',
    '10.0.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.20',
    '169.254.169.254',
    '0.0.0.0',
    '0.1.2.3',
    '::1',
    '::',
    '0:0:0:0:0:0:0:1',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'fe80::1%eth0',
    'febf::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.1.2.3',
    '::ffff:169.254.169.254',
    '::127.0.0.1',
    'not-an-ip',
    '1.2.3',
    '256.1.1.1',
    '1::2::3',
    'fec0::1', // deprecated site-local: still private where it is used
  ])('blocks %s', (ip) => expect(isPrivateAddress(ip)).toBe(true));

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '172.15.255.255',
    '172.32.0.1',
    '192.169.0.1',
    '169.253.0.1',
    '11.0.0.1',
    '2001:4860:4860::8888',
    '2606:4700::1111',
    '::ffff:8.8.8.8',
    'fe00::1',
  ])('allows %s', (ip) => expect(isPrivateAddress(ip)).toBe(false));

  it('checks IP literals in URLs, brackets included, and leaves names to the lookup', () => {
    expect(() => refusePrivateLiteral(new URL('http://[::1]:8080/x'))).toThrow(/not allowed/);
    expect(() => refusePrivateLiteral(new URL('http://127.1/x'))).toThrow(/not allowed/); // URL parses 127.1 as 127.0.0.1
    expect(() => refusePrivateLiteral(new URL('http://0x7f000001/'))).toThrow(/not allowed/);
    expect(refusePrivateLiteral(new URL('https://8.8.8.8/'))).toBe(true);
    expect(refusePrivateLiteral(new URL('https://example.com/'))).toBe(false);
  });
});

describe('Backlog', () => {
  const lease = new Date('2026-03-01T10:01:00.000Z');
  const held = (sub: string, n: number) =>
    Array.from({ length: n }, (_, i) => ({ delivery: { id: `${sub}_${i}` }, group: sub, leaseUntil: lease }));

  it('starts at most perSubscription per subscription and concurrency in total, oldest first', () => {
    const b = new Backlog<{ id: string }>(5, 2, 8);
    b.add([...held('a', 4), ...held('b', 4), ...held('c', 1)]);
    const started = b.takeStartable().map((h) => h.delivery.id);
    expect(started).toEqual(['a_0', 'a_1', 'b_0', 'b_1', 'c_0']);
    expect(b).toMatchObject({ running: 5, waiting: 4 });
    expect(b.rooms()).toEqual({ a: 4, b: 4, c: 7 });
    expect(b.takeStartable()).toEqual([]);
  });

  it('lets the next waiting one of a subscription start when one of its requests ends', () => {
    const b = new Backlog<{ id: string }>(10, 1, 4);
    b.add(held('a', 3));
    expect(b.takeStartable().map((h) => h.delivery.id)).toEqual(['a_0']);
    b.finished('a');
    expect(b.heldBy('a')).toBe(2);
    expect(b.takeStartable().map((h) => h.delivery.id)).toEqual(['a_1']);
    b.finished('a');
    b.takeStartable();
    b.finished('a');
    expect(b).toMatchObject({ running: 0, waiting: 0 });
    expect(b.rooms()).toEqual({});
  });

  it('hands back everything waiting', () => {
    const b = new Backlog<{ id: string }>(1, 1, 4);
    b.add(held('a', 3));
    b.takeStartable();
    expect(b.takeAllWaiting().map((h) => h.delivery.id)).toEqual(['a_1', 'a_2']);
    expect(b).toMatchObject({ running: 1, waiting: 0 });
  });
});

describe('OutcomeBatcher', () => {
  const outcome = (id: string) => ({ deliveryId: id }) as Outcome;

  it('writes the outcomes added in one turn as one batch and tells each caller whether it was updated', async () => {
    const batches: string[][] = [];
    const batcher = new OutcomeBatcher(async (batch) => {
      batches.push(batch.map((o) => o.deliveryId));
      return new Set(['a', 'c']);
    });
    expect(await Promise.all(['a', 'b', 'c'].map((id) => batcher.add(outcome(id))))).toEqual([true, false, true]);
    expect(batches).toEqual([['a', 'b', 'c']]);
  });

  it('sends what arrives during a write in the next batch, at most maxBatch at a time', async () => {
    const batches: string[][] = [];
    let release!: () => void;
    const firstWrite = new Promise<void>((resolve) => (release = resolve));
    const batcher = new OutcomeBatcher(async (batch) => {
      batches.push(batch.map((o) => o.deliveryId));
      if (batches.length === 1) await firstWrite;
      return new Set(batch.map((o) => o.deliveryId));
    }, 2);
    const first = batcher.add(outcome('a'));
    await new Promise((resolve) => setImmediate(resolve));
    const later = ['b', 'c', 'd'].map((id) => batcher.add(outcome(id)));
    release();
    await Promise.all([first, ...later]);
    expect(batches).toEqual([['a'], ['b', 'c'], ['d']]);
  });

  it('rejects every caller of a failed write, and keeps going with the next', async () => {
    let fail = true;
    const batcher = new OutcomeBatcher(async (batch) => {
      if (fail) throw new Error('database down');
      return new Set(batch.map((o) => o.deliveryId));
    });
    const failed = ['a', 'b'].map((id) => batcher.add(outcome(id)));
    for (const p of failed) await expect(p).rejects.toThrow('database down');
    fail = false;
    expect(await batcher.add(outcome('c'))).toBe(true);
  });
});
