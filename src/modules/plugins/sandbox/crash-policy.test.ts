import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../../platform/clock.ts';
import { CrashPolicy } from './crash-policy.ts';

const policy = (clock: FakeClock, maxDelayMs?: number) =>
  new CrashPolicy({ maxCrashes: 4, windowMs: 60_000, baseDelayMs: 100, maxDelayMs }, clock);

describe('crash policy', () => {
  it('restarts with a doubling delay, then gives up at the limit within the window', () => {
    const clock = new FakeClock();
    const p = policy(clock);
    expect(p.record('a')).toEqual({ restart: true, delayMs: 100 });
    clock.advance(1_000);
    expect(p.record('b')).toEqual({ restart: true, delayMs: 200 });
    clock.advance(1_000);
    expect(p.record('c')).toEqual({ restart: true, delayMs: 400 });
    expect(p.record('out of memory')).toEqual({
      restart: false,
      reason: 'Crashed 4 times within 1 min; last: out of memory',
    });
  });

  it('forgets crashes older than the window, so a rare crash always restarts quickly', () => {
    const clock = new FakeClock();
    const p = policy(clock);
    for (let i = 0; i < 10; i++) {
      expect(p.record('x')).toEqual({ restart: true, delayMs: 100 });
      clock.advance(60_001);
    }
    expect(p.recent).toBe(0);
  });

  it('counts only the crashes inside the sliding window', () => {
    const clock = new FakeClock();
    const p = policy(clock);
    p.record('1');
    clock.advance(30_000);
    p.record('2');
    clock.advance(30_001); // the first left the window
    expect(p.recent).toBe(1);
    expect(p.record('3')).toEqual({ restart: true, delayMs: 200 });
  });

  it('caps the delay', () => {
    const clock = new FakeClock();
    const p = new CrashPolicy({ maxCrashes: 100, windowMs: 60_000, baseDelayMs: 1_000, maxDelayMs: 5_000 }, clock);
    const delays = Array.from({ length: 5 }, () => {
      const v = p.record('x');
      return v.restart ? v.delayMs : -1;
    });
    expect(delays).toEqual([1_000, 2_000, 4_000, 5_000, 5_000]);
  });
});
