import type { Redis } from 'ioredis';

export interface WindowCounterOptions {
  /** Points a key may spend per window. */
  points: number;
  windowMs: number;
  now: () => number;
  /** Shares the counts between instances; without it each instance counts alone. */
  redis?: Redis;
  keyPrefix: string;
  /** How often the counts go to Redis and come back (the sharing is this late at most). */
  syncMs?: number;
  onSyncError?: (err: unknown) => void;
}

interface Entry {
  /** Points of every instance as Redis last told us (ours included). */
  shared: number;
  /** Our points not yet sent to Redis. */
  unsent: number;
}

/**
 * Fixed-window counts per key that cost no I/O per request: spending is a Map lookup, and with
 * Redis the points spent since the last sync go out in one pipeline every `syncMs` (INCRBY per
 * key), whose answers bring back every instance's total. A key over its points on any instance
 * is refused everywhere from the next sync on; between syncs an instance may let through at
 * most what one key spends on it in `syncMs`, the price of keeping Redis off the hot path.
 */
export class WindowCounter {
  private window = -1;
  private entries = new Map<string, Entry>();
  private timer?: NodeJS.Timeout;
  private syncing?: Promise<void>;
  /** Redis failed on the last sync: said once, not every 250 ms. */
  private failing = false;

  constructor(private readonly opts: WindowCounterOptions) {
    if (opts.redis) {
      this.timer = setInterval(() => void this.sync(), opts.syncMs ?? 250);
      this.timer.unref();
    }
  }

  /** Spends `cost` points of `key`: 0 when allowed, else the milliseconds until its window ends (nothing spent). */
  spend(key: string, cost: number): number {
    const now = this.opts.now();
    const window = Math.floor(now / this.opts.windowMs);
    if (window !== this.window) {
      this.window = window;
      this.entries = new Map();
    }
    let entry = this.entries.get(key);
    if (!entry) {
      entry = { shared: 0, unsent: 0 };
      this.entries.set(key, entry);
    }
    if (entry.shared + entry.unsent + cost > this.opts.points) return (window + 1) * this.opts.windowMs - now;
    entry.unsent += cost;
    return 0;
  }

  /** Sends what was spent since the last sync and learns every instance's totals (no-op without Redis). */
  sync(): Promise<void> {
    this.syncing ??= this.pushToRedis().finally(() => {
      this.syncing = undefined;
    });
    return this.syncing;
  }

  private async pushToRedis(): Promise<void> {
    const { redis } = this.opts;
    if (!redis) return;
    const window = this.window;
    const entries = this.entries;
    const sent = [...entries].filter(([, e]) => e.unsent > 0).map(([key, e]) => [key, e, e.unsent] as const);
    if (!sent.length) return;
    for (const [, e, n] of sent) e.unsent -= n;
    const pipeline = redis.pipeline();
    for (const [key, , n] of sent) {
      const redisKey = `${this.opts.keyPrefix}${window}:${key}`;
      pipeline.incrby(redisKey, n).pexpire(redisKey, this.opts.windowMs * 2);
    }
    try {
      const results = (await pipeline.exec()) ?? [];
      sent.forEach(([, e], i) => {
        const [err, total] = results[i * 2] ?? [];
        if (!err && typeof total === 'number') e.shared = total;
      });
      this.failing = false;
    } catch (err) {
      // Redis away: keep counting here (as if alone) and try to send these points again.
      for (const [, e, n] of sent) e.unsent += n;
      if (!this.failing) this.opts.onSyncError?.(err);
      this.failing = true;
    }
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
  }
}
