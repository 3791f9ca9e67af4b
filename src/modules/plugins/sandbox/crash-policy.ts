import type { Clock } from '../../../platform/clock.ts';

export interface CrashPolicyOptions {
  maxCrashes: number;
  windowMs: number;
  /** Delay before the first restart; doubled for each further crash in the window. */
  baseDelayMs: number;
  maxDelayMs?: number;
}

export type CrashVerdict = { restart: true; delayMs: number } | { restart: false; reason: string };

/**
 * What to do when a plugin process dies: restart it after a delay that doubles with each crash
 * in the window, or give up once `maxCrashes` crashes fall within `windowMs`. Time comes from the
 * clock, so the schedule is tested without waiting.
 */
export class CrashPolicy {
  private crashes: number[] = [];

  constructor(
    private readonly opts: CrashPolicyOptions,
    private readonly clock: Clock,
  ) {}

  /** Crashes counted in the current window. */
  get recent(): number {
    this.prune();
    return this.crashes.length;
  }

  record(reason: string): CrashVerdict {
    this.crashes.push(this.clock.now().getTime());
    this.prune();
    const n = this.crashes.length;
    if (n >= this.opts.maxCrashes) {
      const minutes = Math.round(this.opts.windowMs / 60_000);
      const span = minutes >= 1 ? `${minutes} min` : `${Math.round(this.opts.windowMs / 1000)} s`;
      return { restart: false, reason: `Crashed ${n} times within ${span}; last: ${reason}` };
    }
    const delay = this.opts.baseDelayMs * 2 ** (n - 1);
    return { restart: true, delayMs: Math.min(delay, this.opts.maxDelayMs ?? 60_000) };
  }

  private prune(): void {
    const since = this.clock.now().getTime() - this.opts.windowMs;
    this.crashes = this.crashes.filter((at) => at > since);
  }
}
