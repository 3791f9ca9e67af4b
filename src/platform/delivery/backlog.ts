export interface Held<T> {
  delivery: T;
  /** The receiver it goes to (the client's `groupOf`). */
  group: string;
  leaseUntil: Date;
}

/**
 * The deliveries one engine has claimed: running (one pool slot each, at most `perGroup` per
 * receiver) and waiting their turn per receiver. Claiming ahead of the pool lets one claim serve
 * many sends; the per-receiver limit keeps a hanging receiver to its own share.
 */
export class Backlog<T> {
  running = 0;
  waiting = 0;
  private readonly runningBy = new Map<string, number>();
  private readonly queues = new Map<string, Held<T>[]>();

  constructor(
    readonly concurrency: number,
    readonly perGroup: number,
    /** Claimed (running + waiting) at most per group. */
    readonly heldPerGroup: number,
  ) {}

  heldBy(group: string): number {
    return (this.runningBy.get(group) ?? 0) + (this.queues.get(group)?.length ?? 0);
  }

  /** How many more each group with something held may get from the next claim. */
  rooms(): Record<string, number> {
    const room: Record<string, number> = {};
    for (const id of new Set([...this.runningBy.keys(), ...this.queues.keys()]))
      room[id] = this.heldPerGroup - this.heldBy(id);
    return room;
  }

  add(items: Held<T>[]): void {
    for (const item of items) {
      const queue = this.queues.get(item.group) ?? [];
      queue.push(item);
      this.queues.set(item.group, queue);
      this.waiting++;
    }
  }

  /** Removes and returns the waiting deliveries the limits let start now, counting them as running. */
  takeStartable(): Held<T>[] {
    const out: Held<T>[] = [];
    for (const [id, queue] of this.queues) {
      let running = this.runningBy.get(id) ?? 0;
      while (queue.length && running < this.perGroup && this.running < this.concurrency) {
        out.push(queue.shift()!);
        running++;
        this.running++;
        this.waiting--;
      }
      if (running > 0) this.runningBy.set(id, running);
      if (!queue.length) this.queues.delete(id);
    }
    return out;
  }

  /** A running delivery's request is over. */
  finished(group: string): void {
    this.running--;
    const left = (this.runningBy.get(group) ?? 1) - 1;
    if (left > 0) this.runningBy.set(group, left);
    else this.runningBy.delete(group);
  }

  /** Empties the waiting queues (on stop), returning what they held. */
  takeAllWaiting(): Held<T>[] {
    const all = [...this.queues.values()].flat();
    this.queues.clear();
    this.waiting = 0;
    return all;
  }
}
