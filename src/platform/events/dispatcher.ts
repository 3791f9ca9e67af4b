import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.ts';
import type { Database, Tx } from '../db/database.ts';
import { preparedRows, textArray, transaction } from '../db/prepared.ts';
import type { EventMessage, SubscriberRegistry } from './bus.ts';
import { OUTBOX_CHANNEL } from './emit.ts';
import { CoalescingPump } from '../jobs/coalescing-pump.ts';

/**
 * A durable consumer of events (the webhook fan-out): runs inside the transaction that marks the
 * events dispatched, so its rows exist exactly when the events count as delivered. Answers true
 * when it queued work for a sender (which `afterBatch` then wakes).
 */
export type DurableSink = (tx: Tx, events: EventMessage[], now: Date) => Promise<boolean>;

export interface DispatcherOptions {
  database: Database;
  clock: Clock;
  log: FastifyBaseLogger;
  bus: SubscriberRegistry;
  sinks?: DurableSink[];
  /** Called after a batch committed in which a sink queued work (e.g. to wake the webhook sender). */
  afterBatch?: () => void;
  batchSize?: number;
  leaseMs?: number;
  handlerTimeoutMs?: number;
  pollMs?: number;
}

/**
 * Reads the outbox after commit and delivers each event at least once:
 * 1. claim a batch with a lease (`FOR UPDATE SKIP LOCKED`, so instances never take the same rows);
 * 2. run the in-process subscribers (each with a timeout; a throw or hang is logged and counted);
 * 3. in one transaction, run the durable sinks and mark the batch dispatched.
 * A crash anywhere before 3 commits leaves the lease to expire and the batch is claimed again.
 */
export class Dispatcher {
  readonly stats = { dispatched: 0, handlerErrors: 0, handlerTimeouts: 0 };
  private timer?: NodeJS.Timeout;
  private unlisten?: () => Promise<void>;
  private readonly pump = new CoalescingPump(
    async () => {
      // A short batch emptied the outbox as far as this pass could see: whatever commits after
      // the claim sends its own NOTIFY, which asks the pump for one more pass. No empty claim.
      while ((await this.runOnce()) >= this.batchSize);
    },
    (err) => this.opts.log.error({ err }, 'event dispatch failed; will retry'),
  );

  /** Batches whose commit failed (the database went away): unlocked first thing once it is back. */
  private unreleased: { ids: string[]; leaseUntil: Date }[] = [];

  constructor(private readonly opts: DispatcherOptions) {}

  private get batchSize(): number {
    return this.opts.batchSize ?? 100;
  }

  async start(): Promise<void> {
    this.unlisten = await this.opts.database.listen(OUTBOX_CHANNEL, () => this.kick());
    this.timer = setInterval(() => this.kick(), this.opts.pollMs ?? 1000);
    this.timer.unref();
    this.kick();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.unlisten?.();
    await this.pump.idle();
  }

  /** Runs batches until the outbox is empty; overlapping kicks coalesce into one more pass. */
  kick(): void {
    void this.pump.run();
  }

  /** For tests: dispatch everything that is due now. */
  async drain(): Promise<void> {
    await this.pump.idle();
    while ((await this.runOnce()) > 0);
  }

  async runOnce(): Promise<number> {
    const { database, clock } = this.opts;
    await this.releaseFailedBatches();
    const now = clock.now();
    const leaseUntil = new Date(now.getTime() + (this.opts.leaseMs ?? 60_000));
    // `= any(array(subquery))` keeps the plan on the pending-rows index; `in (subquery)` planned a scan of the whole outbox.
    const claimed = await preparedRows<EventMessage>(
      database.db,
      sql`update outbox set locked_until = ${leaseUntil.toISOString()}::timestamptz, attempts = attempts + 1
          where id = any(array(
            select id from outbox
            where dispatched_at is null and (locked_until is null or locked_until < ${now.toISOString()}::timestamptz)
            order by id limit ${this.batchSize}
            for update skip locked))
          returning id, name, payload, created_at`,
    );
    if (!claimed.length) return 0;
    claimed.sort((a, b) => (a.id < b.id ? -1 : 1));
    await Promise.all(claimed.map((event) => this.runSubscribers(event)));
    const ids = claimed.map((e) => e.id);
    let queued = false;
    try {
      await transaction(database.db, async (tx) => {
        for (const sink of this.opts.sinks ?? []) if (await sink(tx, claimed, now)) queued = true;
        await preparedRows(
          tx,
          sql`update outbox set dispatched_at = ${clock.now().toISOString()}::timestamptz, locked_until = null
              where id = any(${textArray(ids)})`,
        );
      });
    } catch (err) {
      // Not dispatched: rather than wait out the lease, hand the batch back as soon as we can.
      this.unreleased.push({ ids, leaseUntil });
      throw err;
    }
    this.stats.dispatched += claimed.length;
    if (queued) this.opts.afterBatch?.();
    return claimed.length;
  }

  private async releaseFailedBatches(): Promise<void> {
    while (this.unreleased.length) {
      const { ids, leaseUntil } = this.unreleased[0];
      await this.opts.database.db.execute(
        sql`update outbox set locked_until = null
            where id in (${sql.join(
              ids.map((id) => sql`${id}`),
              sql`, `,
            )}) and dispatched_at is null and locked_until = ${leaseUntil.toISOString()}::timestamptz`,
      );
      this.unreleased.shift();
    }
  }

  private async runSubscribers(event: EventMessage): Promise<void> {
    const timeoutMs = this.opts.handlerTimeoutMs ?? 5_000;
    await Promise.all(
      this.opts.bus.matching(event.name).map(async (sub) => {
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<'timeout'>((resolve) => {
          timer = setTimeout(() => resolve('timeout'), timeoutMs);
        });
        try {
          const outcome = await Promise.race([Promise.resolve().then(() => sub.handler(event)), timeout]);
          if (outcome === 'timeout') {
            this.stats.handlerTimeouts++;
            this.opts.log.warn(
              { event: event.name, eventId: event.id, owner: sub.owner, timeoutMs },
              'event subscriber timed out',
            );
          }
        } catch (err) {
          this.stats.handlerErrors++;
          this.opts.log.error(
            { err, event: event.name, eventId: event.id, owner: sub.owner },
            'event subscriber failed',
          );
        } finally {
          clearTimeout(timer);
        }
      }),
    );
  }
}
