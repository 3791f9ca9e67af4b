import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.ts';
import type { Database } from '../db/database.ts';
import { CoalescingPump } from '../jobs/coalescing-pump.ts';
import { AttemptRunner, STOPPED } from './attempt.ts';
import { Backlog, type Held } from './backlog.ts';
import type { Deliverable, DeliveryClient } from './client.ts';

export interface EngineOptions {
  database: Database;
  clock: Clock;
  log: FastifyBaseLogger;
  /** Production without WEBHOOK_ALLOW_PRIVATE: refuse private addresses at connect time. */
  blockPrivate: boolean;
  /** A receiver must answer (whole body) within this; default 30 s, so a hanging one frees its slot. */
  timeoutMs?: number;
  /** Requests in flight at most, across all receivers (default 128). */
  concurrency?: number;
  /** In flight at most per receiver (default 32), so one hanging receiver cannot take the whole pool. */
  perGroup?: number;
  /** Claimed ahead, waiting for a slot, at most per receiver (default 3 × perGroup). */
  prefetch?: number;
  /** Claim lease; must outlast a send (default timeout + 30 s), or another engine may retry it meanwhile. */
  leaseMs?: number;
  /** How often a started engine looks for due retries. */
  pollMs?: number;
  /** A NOTIFY channel that wakes a started engine (new work committed on any instance). */
  channel?: string;
}

/**
 * Sends due deliveries of one client: claims them in chunks under a lease, runs each as its own
 * task in a bounded pool (a slow receiver only holds its own slots) and records each try.
 * Woken by kick() (or the client's NOTIFY channel) and by a timer for retries; tests call drain().
 */
export class DeliveryEngine<T extends Deliverable> {
  private readonly attempts: AttemptRunner<T>;
  private readonly backlog: Backlog<T>;
  private readonly timeoutMs: number;
  private readonly leaseMs: number;
  /** Everything claimed and not yet recorded; drain() and stop() wait for these. */
  private readonly inFlight = new Map<string, { abort: AbortController; done: Promise<void> }>();
  /** Claimed deliveries too close to their lease's end to start: handed back by the next pump. */
  private expired: Held<T>[] = [];
  /** Sent but not recorded (the database went away): handed back by the next pump instead of waiting out the lease. */
  private unrecorded: Held<T>[] = [];
  private started = false;
  private stopping = false;
  private draining = 0;
  /** Overlapping wake-ups coalesce into one more pass of the running claim loop. */
  private readonly pump = new CoalescingPump(
    () => this.fill(),
    (err) => this.opts.log.error({ err }, `${this.client.name} claim failed; will retry`),
  );
  private backlogWasFull = false;
  /** Receivers whose last claim was cut short by their room: more is probably due. */
  private readonly moreDue = new Set<string>();
  private timer?: NodeJS.Timeout;
  private unlisten?: () => Promise<void>;

  constructor(
    private readonly opts: EngineOptions,
    private readonly client: DeliveryClient<T>,
  ) {
    this.timeoutMs = opts.timeoutMs ?? 30_000;
    this.leaseMs = opts.leaseMs ?? this.timeoutMs + 30_000;
    const perGroup = opts.perGroup ?? 32;
    this.backlog = new Backlog(opts.concurrency ?? 128, perGroup, perGroup + (opts.prefetch ?? 3 * perGroup));
    this.attempts = new AttemptRunner({ ...opts, timeoutMs: this.timeoutMs }, client);
  }

  get stats() {
    return this.attempts.stats;
  }

  async start(): Promise<void> {
    this.started = true;
    if (this.opts.channel) this.unlisten = await this.opts.database.listen(this.opts.channel, () => this.kick());
    this.timer = setInterval(() => this.kick(), this.opts.pollMs ?? 1000);
    this.timer.unref();
    this.kick();
  }

  /**
   * Hands back what waits; what runs gets `graceMs` to finish and be recorded (a shutdown's
   * drain time), then is aborted (released unrecorded, due at once for any engine).
   */
  async stop(graceMs = 0): Promise<void> {
    this.started = false;
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    await this.unlisten?.();
    this.unlisten = undefined;
    await this.pump.idle();
    await this.handBack([...this.expired.splice(0), ...this.backlog.takeAllWaiting()]);
    if (graceMs > 0 && this.inFlight.size) {
      let timer: NodeJS.Timeout | undefined;
      const grace = new Promise((resolve) => {
        timer = setTimeout(resolve, graceMs);
      });
      await Promise.race([Promise.all([...this.inFlight.values()].map((f) => f.done)), grace]);
      clearTimeout(timer);
    }
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
      const unrecorded = this.unrecorded.splice(0);
      await this.handBack(unrecorded).catch((err) => {
        this.unrecorded.push(...unrecorded);
        throw err;
      });
      const limit = maxHeld - this.backlog.running - this.backlog.waiting;
      if (limit <= 0) return;
      const now = this.opts.clock.now();
      const leaseUntil = new Date(now.getTime() + this.leaseMs);
      const room = this.backlog.rooms();
      const claimed = await this.client.claim(this.opts.database.db, {
        now,
        leaseUntil,
        limit,
        perGroup: this.backlog.heldPerGroup,
        room,
      });
      const held = claimed.map((delivery) => ({ delivery, group: this.client.groupOf(delivery), leaseUntil }));
      this.noteBacklogs(
        held.map((h) => h.group),
        room,
      );
      this.backlog.add(held);
      this.startWaiting();
      this.backlogWasFull = claimed.length === limit;
      if (!this.backlogWasFull) return;
    }
  }

  /** A receiver that got all the room it asked for probably has more due: worth claiming again early. */
  private noteBacklogs(groups: string[], room: Record<string, number>): void {
    const got = new Map<string, number>();
    for (const id of groups) got.set(id, (got.get(id) ?? 0) + 1);
    for (const id of this.moreDue) if (!got.has(id)) this.moreDue.delete(id);
    for (const [id, n] of got) {
      if (n >= (room[id] ?? this.backlog.heldPerGroup)) this.moreDue.add(id);
      else this.moreDue.delete(id);
    }
  }

  /**
   * Claimed at most in total: as many receivers' full shares as fit in the pool, so the
   * receivers that could starve the others of claims would already fill the pool anyway.
   */
  private maxHeld(): number {
    const { concurrency, perGroup, heldPerGroup } = this.backlog;
    return Math.ceil((concurrency / perGroup) * heldPerGroup);
  }

  private async handBack(items: Held<T>[]): Promise<void> {
    const byLease = new Map<number, string[]>();
    for (const { delivery, leaseUntil } of items)
      byLease.set(leaseUntil.getTime(), [...(byLease.get(leaseUntil.getTime()) ?? []), delivery.id]);
    for (const [lease, ids] of byLease) await this.client.release(this.opts.database.db, ids, new Date(lease));
  }

  /** Starts what the limits allow; a delivery whose lease could run out mid-request is handed back instead. */
  private startWaiting(): void {
    if (this.stopping) return;
    const latestSafeStart = this.opts.clock.now().getTime() + this.timeoutMs + 5_000;
    for (const held of this.backlog.takeStartable()) {
      if (held.leaseUntil.getTime() < latestSafeStart) {
        this.backlog.finished(held.group);
        this.expired.push(held);
      } else {
        this.launch(held);
      }
    }
  }

  private launch({ delivery: d, group, leaseUntil }: Held<T>): void {
    const abort = new AbortController();
    let slotFreed = false;
    const requestDone = () => {
      if (slotFreed) return;
      slotFreed = true;
      this.backlog.finished(group);
      this.startWaiting();
      // Claim again in chunks, not per completion: when this receiver has more due and its
      // claimed-ahead share is half used, when a lease expired, or when the backlog had been full.
      const half =
        this.moreDue.has(group) &&
        this.backlog.heldBy(group) <= (this.backlog.perGroup + this.backlog.heldPerGroup) / 2;
      const roomLeft = this.maxHeld() - this.backlog.running - this.backlog.waiting;
      const worthIt = half || this.expired.length > 0 || (this.backlogWasFull && roomLeft >= this.backlog.perGroup);
      if ((this.started || this.draining) && worthIt) void this.pump.run();
    };
    const done = this.attempts
      .run(d, leaseUntil, abort, requestDone)
      .catch((err) => {
        this.opts.log.error(
          { err, deliveryId: d.id },
          `${this.client.name} delivery bookkeeping failed; handed back once the database answers`,
        );
        // At least once: it may have reached the receiver; the same delivery id goes out again.
        this.unrecorded.push({ delivery: d, group, leaseUntil });
      })
      .finally(() => {
        requestDone();
        this.inFlight.delete(d.id);
      });
    this.inFlight.set(d.id, { abort, done });
  }
}
