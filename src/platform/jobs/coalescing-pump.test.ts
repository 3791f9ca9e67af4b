import { describe, expect, it } from 'vitest';
import { CoalescingPump } from './coalescing-pump.ts';

describe('CoalescingPump', () => {
  it('runs one pass at a time and folds overlapping calls into one more pass', async () => {
    let passes = 0;
    let concurrent = 0;
    let release!: () => void;
    const pump = new CoalescingPump(
      async () => {
        concurrent++;
        expect(concurrent).toBe(1);
        passes++;
        if (passes === 1) await new Promise<void>((r) => (release = r));
        concurrent--;
      },
      () => {},
    );
    const first = pump.run();
    const second = pump.run();
    const third = pump.run();
    expect(second).toBe(first);
    expect(third).toBe(first);
    release();
    await first;
    expect(passes).toBe(2);
    await pump.idle();
    await pump.run();
    expect(passes).toBe(3);
  });

  it('reports a failing pass and is ready again afterwards', async () => {
    const errors: unknown[] = [];
    let fail = true;
    const pump = new CoalescingPump(
      async () => {
        if (fail) throw new Error('boom');
      },
      (err) => errors.push(err),
    );
    await pump.run();
    expect(errors).toHaveLength(1);
    fail = false;
    await pump.run();
    expect(errors).toHaveLength(1);
  });
});
