import type { Outcome } from './client.ts';

interface Waiting {
  outcome: Outcome;
  resolve: (updated: boolean) => void;
  reject: (err: unknown) => void;
}

/**
 * Writes attempt outcomes in batches: whatever finished while the previous write ran goes out in
 * the next single statement, so a busy engine costs a few statements per second, not one per
 * delivery. Each caller still learns whether its delivery was updated (it held the lease).
 */
export class OutcomeBatcher {
  private queue: Waiting[] = [];
  private flushing = false;

  constructor(
    private readonly write: (batch: Outcome[]) => Promise<Set<string>>,
    private readonly maxBatch = 500,
  ) {}

  add(outcome: Outcome): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.queue.push({ outcome, resolve, reject });
      if (!this.flushing) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    // Let the outcomes that complete in the same turn join this batch.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.queue.length) {
      const batch = this.queue.splice(0, this.maxBatch);
      try {
        const updated = await this.write(batch.map((w) => w.outcome));
        for (const w of batch) w.resolve(updated.has(w.outcome.deliveryId));
      } catch (err) {
        for (const w of batch) w.reject(err);
      }
    }
    this.flushing = false;
  }
}
