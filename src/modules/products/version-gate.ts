/**
 * Coalesced reads of a version that only moves forward (the store catalog's, store-cache.ts).
 * `next()` answers with a read that STARTED after the call: whatever was committed before the
 * caller arrived is in it. One read runs at a time; callers arriving while one runs cannot use it
 * (it may have started before their writer's commit), so they all wait for the next one. That one
 * starts once the event loop has taken in the requests that arrived with the last answer
 * (setImmediate runs after the I/O phase): under load, one round trip serves every request that
 * arrived during the previous one, and back-to-back reads do not take a core from the requests.
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
      if (!this.waiting) {
        this.running = false;
        return;
      }
      // Still "running" until the next read starts: a caller arriving before then joins it, and
      // it starts after every one of them arrived.
      setImmediate(() => {
        const waiting = this.waiting!;
        this.waiting = undefined;
        waiting.resolve(this.start());
      });
    };
    read.then(done, done);
    return read;
  }
}
