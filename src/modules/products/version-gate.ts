/**
 * Coalesced reads of a version that only moves forward (the store catalog's, store-cache.ts).
 * `next()` answers with a read that STARTED after the call: whatever was committed before the
 * caller arrived is in it. One read runs at a time; callers arriving while one runs cannot use it
 * (it may have started before their writer's commit), so they all wait for the next one, which
 * starts the moment the running one ends. Under load, one round trip serves every request that
 * arrived during the previous one.
 */
export class VersionGate<V> {
  private running = false;
  private waiting: { promise: Promise<V>; resolve(v: Promise<V>): void } | undefined;

  constructor(private readonly read: () => Promise<V>) {}

  next(): Promise<V> {
    if (!this.running) return this.start();
    if (!this.waiting) {
      let resolve!: (v: Promise<V>) => void;
      const promise = new Promise<V>((r) => {
        resolve = r;
      });
      this.waiting = { promise, resolve };
    }
    return this.waiting.promise;
  }

  private start(): Promise<V> {
    this.running = true;
    // A read that throws at once fails its callers like one that rejects.
    const read = new Promise<V>((resolve) => resolve(this.read()));
    const done = () => {
      this.running = false;
      const waiting = this.waiting;
      this.waiting = undefined;
      // The next read starts here, after the last one ended and so after every waiter arrived.
      if (waiting) waiting.resolve(this.start());
    };
    read.then(done, done);
    return read;
  }
}
