import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../platform/clock.ts';
import type { Database } from '../../platform/db/database.ts';
import { CoalescingPump } from '../../platform/jobs/coalescing-pump.ts';
import { AttemptRunner, STOPPED } from './attempt.ts';
import { Backlog, type Held } from './backlog.ts';
import { claimDueDeliveries, releaseClaims } from './delivery-queries.ts';

export interface SenderOptions {
  database: Database;
  clock: Clock;
  log: FastifyBaseLogger;
  encryptionKey: string;
  /** Production without WEBHOOK_ALLOW_PRIVATE: refuse private addresses at connect time. */
  blockPrivate: boolean;
  /** A receiver must answer (whole body) within this; default 30 s (spec section 8). */
  timeoutMs?: number;
  /** Requests in flight at most, across all subscriptions (default 128). */
  concurrency?: number;
  /** In flight at most per subscription (default 32), so one hanging receiver cannot take the whole pool. */
  perSubscription?: number;
  /** Claimed ahead, waiting for a slot, at most per subscription (default 3 × perSubscription). */
  prefetch?: number;
  /** Claim lease; must outlast a send (default timeout + 30 s), or another sender may retry it meanwhile. */
  leaseMs?: number;
  /** How often a started sender looks for due retries. */
  pollMs?: number;
}

/**
 * Sends due webhook deliveries: claims them in chunks under a lease, runs each as its own task
 * in a bounded pool (a slow receiver only holds its own slots) and records an attempt per try.
 * Woken by kick() after fan-out and by a timer for retries; tests call drain().
 */
export class WebhookSender {
  private readonly attempts: AttemptRunner;
  private readonly backlog: Backlog;
  private readonly timeoutMs: number;
  private readonly leaseMs: number;
  /** Everything claimed and not yet recorded; drain() and stop() wait for these. */
  private readonly inFlight = new Map<string, { abort: AbortController; done: Promise<void> }>();
  /** Claimed deliveries too close to their lease's end to start: handed back by the next pump. */
  private expired: Held[] = [];
  private started = false;
  private stopping = false;
  private draining = 0;
  /** Overlapping wake-ups coalesce into one more pass of the running claim loop. */
  private readonly pump = new CoalescingPump(
    () => this.fill(),
    (err) => this.opts.log.error({ err }, 'webhook claim failed; will retry'),
  );
  private backlogWasFull = false;
  /** Subscriptions whose last claim was cut short by their room: more is probably due. */
  private readonly moreDue = new Set<string>();
  private timer?: NodeJS.Timeout;

  constructor(private readonly opts: SenderOptions) {
    this.timeoutMs = opts.timeoutMs ?? 30_000;
    this.leaseMs = opts.leaseMs ?? this.timeoutMs + 30_000;
    const perSubscription = opts.perSubscription ?? 32;
    this.backlog = new Backlog(opts.concurrency ?? 128, perSubscription, perSubscription + (opts.prefetch ?? 3 * perSubscription));
    this.attempts = new AttemptRunner({ ...opts, timeoutMs: this.timeoutMs });
  }

  get stats() {
    return this.attempts.stats;
  }

  start(): void {
    this.started = true;
    this.timer = setInterval(() => this.kick(), this.opts.pollMs ?? 1000);
    this.timer.unref();
    this.kick();
  }

  /** Hands back what waits and aborts what runs (released unrecorded, due at once for any sender). */
  async stop(): Promise<void> {
    this.started = false;
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    await this.pump.idle();
    await this.handBack([...this.expired.splice(0), ...this.backlog.takeAllWaiting()]);
    for (const f of this.inFlight.values()) f.abort.abort(STOPPED);
    await Promise.all([...this.inFlight.values()].map((f) => f.done));
    this.attempts.resetConnections();
    this.stopping = false;
  }

  /** Something may be due: fill the pool (no-op unless started; tests use drain()). */
  kick(): void {
    if (this.started) void this.pump.run();
  }

  /** Sends everything due now and waits until those attempts are recorded. */
  async drain(): Promise<void> {
    this.draining++;
    try {
      for (;;) {
        await this.pump.run();
        if (this.inFlight.size === 0 && this.backlog.waiting === 0) return;
        await Promise.all([...this.inFlight.values()].map((f) => f.done));
      }
    } finally {
      this.draining--;
    }
  }


  /** Claims until the backlog is full or nothing more is due, starting what the pool allows. */
  private async fill(): Promise<void> {
    const maxHeld = this.maxHeld();
    while (!this.stopping) {
      this.startWaiting();
      await this.handBack(this.expired.splice(0));
      const limit = maxHeld - this.backlog.running - this.backlog.waiting;
      if (limit <= 0) return;
      const now = this.opts.clock.now();
      const leaseUntil = new Date(now.getTime() + this.leaseMs);
      const room = this.backlog.rooms();
      const claimed = await claimDueDeliveries(this.opts.database.db, { now, leaseUntil, limit, perSubscription: this.backlog.heldPerSubscription, room });
      this.noteBacklogs(claimed.map((d) => d.subscription_id), room);
      this.backlog.add(claimed.map((delivery) => ({ delivery, leaseUntil })));
      this.startWaiting();
      this.backlogWasFull = claimed.length === limit;
      if (!this.backlogWasFull) return;
    }
  }

  /** A subscription that got all the room it asked for probably has more due: worth claiming again early. */
  private noteBacklogs(subscriptionIds: string[], room: Record<string, number>): void {
    const got = new Map<string, number>();
    for (const id of subscriptionIds) got.set(id, (got.get(id) ?? 0) + 1);
    for (const id of this.moreDue) if (!got.has(id)) this.moreDue.delete(id);
    for (const [id, n] of got) {
      if (n >= (room[id] ?? this.backlog.heldPerSubscription)) this.moreDue.add(id);
      else this.moreDue.delete(id);
    }
  }

  /**
   * Claimed at most in total: as many subscriptions' full shares as fit in the pool, so the
   * subscriptions that could starve the others of claims would already fill the pool anyway.
   */
  private maxHeld(): number {
    const { concurrency, perSubscription, heldPerSubscription } = this.backlog;
    return Math.ceil((concurrency / perSubscription) * heldPerSubscription);
  }

  private async handBack(items: Held[]): Promise<void> {
    const byLease = new Map<number, string[]>();
    for (const { delivery, leaseUntil } of items) byLease.set(leaseUntil.getTime(), [...(byLease.get(leaseUntil.getTime()) ?? []), delivery.id]);
    for (const [lease, ids] of byLease) await releaseClaims(this.opts.database.db, ids, new Date(lease));
  }

  /** Starts what the limits allow; a delivery whose lease could run out mid-request is handed back instead. */
  private startWaiting(): void {
    if (this.stopping) return;
    const latestSafeStart = this.opts.clock.now().getTime() + this.timeoutMs + 5_000;
    for (const held of this.backlog.takeStartable()) {
      if (held.leaseUntil.getTime() < latestSafeStart) {
        this.backlog.finished(held.delivery.subscription_id);
        this.expired.push(held);
      } else {
        this.launch(held);
      }
    }
  }

  private launch({ delivery: d, leaseUntil }: Held): void {
    const abort = new AbortController();
    let slotFreed = false;
    const requestDone = () => {
      if (slotFreed) return;
      slotFreed = true;
      this.backlog.finished(d.subscription_id);
      this.startWaiting();
      // Claim again in chunks, not per completion: when this subscription has more due and its
      // claimed-ahead share is half used, when a lease expired, or when the backlog had been full.
      const half =
        this.moreDue.has(d.subscription_id) &&
        this.backlog.heldBy(d.subscription_id) <= (this.backlog.perSubscription + this.backlog.heldPerSubscription) / 2;
      const roomLeft = this.maxHeld() - this.backlog.running - this.backlog.waiting;
      const worthIt = half || this.expired.length > 0 || (this.backlogWasFull && roomLeft >= this.backlog.perSubscription);
      if ((this.started || this.draining) && worthIt) void this.pump.run();
    };
    const done = this.attempts
      .run(d, leaseUntil, abort, requestDone)
      .catch((err) => this.opts.log.error({ err, deliveryId: d.id }, 'webhook delivery bookkeeping failed; the lease will expire'))
      .finally(() => {
        requestDone();
        this.inFlight.delete(d.id);
      });
    this.inFlight.set(d.id, { abort, done });
  }
}
