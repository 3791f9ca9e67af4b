import { sql, type SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.ts';
import type { Ctx } from '../context.ts';
import type { Database } from '../db/database.ts';
import { writeTogether, type Part } from '../db/one-statement.ts';
import { preparedRows, textArray } from '../db/prepared.ts';
import { eventMatchesSql, type EventMessage, type SubscriberRegistry } from './bus.ts';
import { OUTBOX_CHANNEL } from './emit.ts';
import { CoalescingPump } from '../jobs/coalescing-pump.ts';

/**
 * A durable consumer of events (the webhook fan-out, the shop's messages): its rows are written
 * by the statement that marks the events dispatched, so they exist exactly when the events count
 * as delivered. `wants(name)` is an SQL condition on an event's name (a text expression): false
 * when `write` would write nothing for it. `read`, a scalar SQL expression, is read by the
 * statement that claims the batch (the same round trip) and handed to `write` (the webhook
 * subscriptions, say).
 */
export interface DurableSink {
  wants(name: SQL): SQL;
  read?: SQL;
  write(ctx: Ctx, events: EventMessage[], now: Date, read: unknown): SinkWrites | Promise<SinkWrites>;
}

export interface SinkWrites {
  /** Parts of the batch's statement (db/one-statement.ts); named parts need names no other sink uses. */
  writes: Part[];
  /** Work was queued for a sender: `afterBatch` wakes the senders once the batch commits. */
  queued: boolean;
  /** NOTIFY channels that wake other instances' senders, sent after the commit. */
  notify?: string[];
}

export interface DispatcherOptions {
  database: Database;
  clock: Clock;
  log: FastifyBaseLogger;
  bus: SubscriberRegistry;
  sinks?: DurableSink[];
  /** Called after a batch committed in which a sink queued work (to wake the webhook sender, say). */
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
 * 3. in one statement, write what the durable sinks make of the batch and mark it dispatched.
 * A crash anywhere before 3 commits leaves the lease to expire and the batch is claimed again.
 * Two statements per batch, whatever the sinks do, and one for events nobody wants (no
 * subscriber's pattern and no sink's `wants` matches: most cart events of a shop without
 * plugins or webhooks), which the claim itself marks dispatched, without reading their payload.
 * On PGlite the dispatcher shares the Node thread with the requests whose events it dispatches.
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
    const sinks = this.opts.sinks ?? [];
    const patterns = this.opts.bus.patterns();
    // Qualified: a sink's condition may read tables that have a `name` of their own.
    const name = sql`outbox.name`;
    const wants = [
      ...(patterns.length
        ? [
            sql`exists (select 1 from unnest(${textArray(patterns)}) as p(pattern) where ${eventMatchesSql(sql`p.pattern`, name)})`,
          ]
        : []),
      ...sinks.map((sink) => sink.wants(name)),
    ];
    const wanted = wants.length ? sql.join(wants, sql` or `) : sql`false`;
    const reads = sinks.map((sink, i) => (sink.read ? sql`, ${sink.read} as ${sql.raw(`read${i}`)}` : sql``));
    // `= any(array(subquery))` keeps the plan on the pending-rows index; `in (subquery)` planned a scan of the whole outbox.
    const claimed = await preparedRows<EventMessage & { wanted: boolean } & Record<string, unknown>>(
      database.db,
      sql`with claimed as (
            update outbox set attempts = attempts + 1,
              locked_until = case when ${wanted} then ${leaseUntil.toISOString()}::timestamptz end,
              dispatched_at = case when ${wanted} then null else ${now.toISOString()}::timestamptz end
            where id = any(array(
              select id from outbox
              where dispatched_at is null and (locked_until is null or locked_until < ${now.toISOString()}::timestamptz)
              order by id limit ${this.batchSize}
              for update skip locked))
            returning id, name, created_at, locked_until is not null as wanted,
              case when locked_until is not null then payload end as payload)
          select id, name, payload, created_at, wanted${sql.join(reads, sql``)} from claimed order by id`,
    );
    const events: EventMessage[] = claimed
      .filter((e) => e.wanted)
      .map(({ id, name, payload, created_at }) => ({ id, name, payload, created_at }));
    this.stats.dispatched += claimed.length - events.length;
    if (!events.length) return claimed.length;
    await Promise.all(events.map((event) => this.runSubscribers(event)));
    const ids = events.map((e) => e.id);
    const readsOf = claimed.find((e) => e.wanted)!;
    let queued = false;
    const notify = new Set<string>();
    try {
      const ctx: Ctx = { db: database.db, clock, log: this.opts.log };
      const writes: Part[] = [];
      for (const [i, sink] of sinks.entries()) {
        const out = await sink.write(ctx, events, now, readsOf[`read${i}`]);
        writes.push(...out.writes);
        queued ||= out.queued;
        for (const channel of out.notify ?? []) notify.add(channel);
      }
      writes.push(
        sql`update outbox set dispatched_at = ${clock.now().toISOString()}::timestamptz, locked_until = null
            where id = any(${textArray(ids)})`,
      );
      await writeTogether(database.db, writes);
    } catch (err) {
      // Not dispatched: rather than wait out the lease, hand the batch back as soon as we can.
      this.unreleased.push({ ids, leaseUntil });
      throw err;
    }
    this.stats.dispatched += events.length;
    if (queued) this.opts.afterBatch?.();
    for (const channel of notify)
      await database.db
        .execute(sql`select pg_notify(${channel}, '')`)
        .catch((err) => this.opts.log.warn({ err, channel }, 'could not wake other instances; their poll will'));
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
