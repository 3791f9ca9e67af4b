/** Everything time-based reads the clock through this, so tests can move time instead of sleeping. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that only moves when told to. Used by tests and benchmarks. */
export class FakeClock implements Clock {
  private ms: number;
  constructor(start: Date | string = '2026-01-01T00:00:00.000Z') {
    this.ms = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.ms);
  }
  advance(ms: number): void {
    this.ms += ms;
  }
  set(at: Date | string): void {
    this.ms = new Date(at).getTime();
  }
}
