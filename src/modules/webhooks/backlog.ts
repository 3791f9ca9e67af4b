import type { ClaimedDelivery } from './delivery-queries.ts';

export interface Held {
  delivery: ClaimedDelivery;
  leaseUntil: Date;
}

/**
 * The deliveries one sender has claimed: running (one pool slot each, at most `perSubscription`
 * per subscription) and waiting their turn per subscription. Claiming ahead of the pool lets one
 * claim serve many sends; the per-subscription limit keeps a hanging receiver to its own share.
 */
export class Backlog {
  running = 0;
  waiting = 0;
  private readonly runningBy = new Map<string, number>();
  private readonly queues = new Map<string, Held[]>();

  constructor(
    readonly concurrency: number,
    readonly perSubscription: number,
    /** Claimed (running + waiting) at most per subscription. */
    readonly heldPerSubscription: number,
  ) {}

  heldBy(subscriptionId: string): number {
    return (this.runningBy.get(subscriptionId) ?? 0) + (this.queues.get(subscriptionId)?.length ?? 0);
  }

  /** How many more each subscription with something held may get from the next claim. */
  rooms(): Record<string, number> {
    const room: Record<string, number> = {};
    for (const id of new Set([...this.runningBy.keys(), ...this.queues.keys()])) room[id] = this.heldPerSubscription - this.heldBy(id);
    return room;
  }

  add(items: Held[]): void {
    for (const item of items) {
      const id = item.delivery.subscription_id;
      const queue = this.queues.get(id) ?? [];
      queue.push(item);
      this.queues.set(id, queue);
      this.waiting++;
    }
  }

  /** Removes and returns the waiting deliveries the limits let start now, counting them as running. */
  takeStartable(): Held[] {
    const out: Held[] = [];
    for (const [id, queue] of this.queues) {
      let running = this.runningBy.get(id) ?? 0;
      while (queue.length && running < this.perSubscription && this.running < this.concurrency) {
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
  finished(subscriptionId: string): void {
    this.running--;
    const left = (this.runningBy.get(subscriptionId) ?? 1) - 1;
    if (left > 0) this.runningBy.set(subscriptionId, left);
    else this.runningBy.delete(subscriptionId);
  }

  /** Empties the waiting queues (on stop), returning what they held. */
  takeAllWaiting(): Held[] {
    const all = [...this.queues.values()].flat();
    this.queues.clear();
    this.waiting = 0;
    return all;
  }
}
