import { and, eq, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.ts';
import type { Database, Db, Executor } from '../db/database.ts';
import { rows } from '../db/database.ts';
import { CoalescingPump } from './coalescing-pump.ts';
import { JOBS_CHANNEL, type JobFileKind, type JobRow, saveJobFile } from './queue.ts';
import { jobs } from './tables.ts';

/** A handler's refusal that no retry can cure (a malformed plan): the job fails at once. */
export class JobFailure extends Error {}

/** The runner no longer holds the job (its lease ran out and another instance took it). */
export class LeaseLost extends Error {
  constructor(id: string) {
    super(`lease of job ${id} lost`);
  }
}

/** What a handler gets for one run of one job. */
export interface JobContext {
  job: JobRow;
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  /** Aborted when the lease is lost (taken over, or the job canceled) or the instance stops: finish the batch at hand and return. */
  signal: AbortSignal;
  /**
   * Records progress in the caller's transaction (commit it with the batch it counts) and renews
   * the lease; throws LeaseLost when the job is no longer this runner's, so that batch rolls back.
   */
  progress(tx: Executor, done: number, total?: number): Promise<void>;
  saveFile(tx: Executor, kind: JobFileKind, filename: string, contentType: string, content: string): Promise<void>;
}

/** A kind of background job as data: its type and an idempotent, resumable `run`. */
export interface JobHandler {
  type: string;
  /** Returns the job's result (stored on the row); a throw retries it later, a JobFailure fails it. */
  run(ctx: JobContext): Promise<Record<string, unknown> | undefined>;
}

export interface JobRunnerOptions {
  database: Database;
  clock: Clock;
  log: FastifyBaseLogger;
  /** Names this instance in `lease_owner`. */
  owner: string;
  /** How long a claim holds without renewal (default 30 s); renewed every third of it. */
  leaseMs?: number;
  pollMs?: number;
  /** Jobs run at once on this instance (default 1: imports are heavy). */
  concurrency?: number;
  /** Claims of one job before it is failed (a job whose instance keeps dying must not loop). */
  maxAttempts?: number;
}

/**
 * Runs due jobs of the registered types, one instance per job: a claim is an UPDATE of the oldest
 * due row picked `FOR UPDATE SKIP LOCKED`, holding a lease the runner renews while the handler
 * works. An instance that dies stops renewing; once the lease has run out any runner claims the
 * job again and its handler resumes from the progress that committed. Woken by NOTIFY on
 * JOBS_CHANNEL, a poll timer (expired leases, retries), and `drain()` in tests.
 */
export class JobRunner {
  private readonly handlers = new Map<string, JobHandler>();
  private readonly running = new Map<string, { abort: AbortController; done: Promise<void> }>();
  private readonly leaseMs: number;
  private readonly pump = new CoalescingPump(
    () => this.fill(),
    (err) => this.opts.log.error({ err }, 'job claim failed; will retry'),
  );
  private started = false;
  private stopping = false;
  /** Set by stop(): claims nothing more (drain() included) until start(). */
  private halted = false;
  private timer?: NodeJS.Timeout;
  private unlisten?: () => Promise<void>;

  constructor(private readonly opts: JobRunnerOptions) {
    this.leaseMs = opts.leaseMs ?? 30_000;
  }

  register(handler: JobHandler): this {
    this.handlers.set(handler.type, handler);
    return this;
  }

  async start(): Promise<void> {
    this.started = true;
    this.halted = false;
    this.unlisten = await this.opts.database.listen(JOBS_CHANNEL, () => this.kick());
    this.timer = setInterval(() => this.kick(), this.opts.pollMs ?? 1000);
    this.timer.unref();
    this.kick();
  }

  kick(): void {
    if (this.started && !this.stopping) void this.pump.run();
  }

  /** Runs every due job to its end (tests). */
  async drain(): Promise<void> {
    for (;;) {
      const before = this.claimedCount;
      await this.pump.run();
      if (!this.running.size && this.claimedCount === before) return;
      await Promise.all([...this.running.values()].map((r) => r.done));
    }
  }

  /** Stops claiming; running jobs get `graceMs` to end, then are handed back (claimable at once). */
  async stop(graceMs = 0): Promise<void> {
    this.started = false;
    this.stopping = true;
    this.halted = true;
    if (this.timer) clearInterval(this.timer);
    await this.unlisten?.();
    this.unlisten = undefined;
    await this.pump.idle();
    if (graceMs > 0 && this.running.size) {
      let t: NodeJS.Timeout | undefined;
      const grace = new Promise((r) => {
        t = setTimeout(r, graceMs);
      });
      await Promise.race([Promise.all([...this.running.values()].map((r) => r.done)), grace]);
      clearTimeout(t);
    }
    for (const r of this.running.values()) r.abort.abort(new Error('stopping'));
    await Promise.all([...this.running.values()].map((r) => r.done));
    this.stopping = false;
  }

  private claimedCount = 0;

  private async fill(): Promise<void> {
    const types = [...this.handlers.keys()];
    if (!types.length || this.halted) return;
    while (!this.stopping && this.running.size < (this.opts.concurrency ?? 1)) {
      const job = await this.claim(types);
      if (!job) return;
      this.claimedCount++;
      this.launch(job);
    }
  }

  private async claim(types: string[]): Promise<JobRow | undefined> {
    const now = this.opts.clock.now();
    const until = new Date(now.getTime() + this.leaseMs);
    const typeList = sql.join(
      types.map((t) => sql`${t}`),
      sql`, `,
    );
    const [row] = await rows<Record<string, unknown>>(
      this.opts.database.db,
      sql`update jobs set status = 'running', lease_owner = ${this.opts.owner}, lease_until = ${until.toISOString()}::timestamptz,
            attempts = attempts + 1, started_at = coalesce(started_at, ${now.toISOString()}::timestamptz),
            updated_at = ${now.toISOString()}::timestamptz
          where id = (select id from jobs
                      where type in (${typeList})
                        and ((status = 'pending' and (run_after is null or run_after <= ${now.toISOString()}::timestamptz))
                          or (status = 'running' and lease_until < ${now.toISOString()}::timestamptz))
                      order by created_at limit 1 for update skip locked)
          returning id`,
    );
    if (!row) return undefined;
    const [job] = await this.opts.database.db
      .select()
      .from(jobs)
      .where(eq(jobs.id, row.id as string));
    return job;
  }

  private launch(job: JobRow): void {
    const abort = new AbortController();
    const done = this.runOne(job, abort).finally(() => {
      this.running.delete(job.id);
      this.kick();
    });
    this.running.set(job.id, { abort, done });
  }

  private async runOne(job: JobRow, abort: AbortController): Promise<void> {
    const { clock, log, database } = this.opts;
    const owner = this.opts.owner;
    const mine = and(eq(jobs.id, job.id), eq(jobs.lease_owner, owner));
    const leaseFrom = () => new Date(clock.now().getTime() + this.leaseMs);
    const handler = this.handlers.get(job.type);
    const max = this.opts.maxAttempts ?? 5;
    if (!handler || job.attempts > max) {
      await this.finish(job.id, {
        status: 'failed',
        error: handler ? `gave up after ${max} attempts` : `no handler for ${job.type}`,
      });
      return;
    }
    // Renew the lease while the handler works; a renewal that finds the job taken aborts it.
    const heartbeat = setInterval(
      () => {
        database.db
          .update(jobs)
          .set({ lease_until: leaseFrom() })
          .where(mine)
          .returning({ id: jobs.id })
          .then((r) => {
            if (!r.length) abort.abort(new LeaseLost(job.id));
          })
          .catch((err) => log.warn({ err, job: job.id }, 'job lease renewal failed'));
      },
      Math.max(50, Math.floor(this.leaseMs / 3)),
    );
    heartbeat.unref();
    const ctx: JobContext = {
      job,
      db: database.db,
      clock,
      log,
      signal: abort.signal,
      progress: async (tx, done, total) => {
        const updated = await tx
          .update(jobs)
          .set({
            progress_done: done,
            ...(total === undefined ? {} : { progress_total: total }),
            lease_until: leaseFrom(),
            updated_at: clock.now(),
          })
          .where(mine)
          .returning({ id: jobs.id });
        if (!updated.length) throw new LeaseLost(job.id);
      },
      saveFile: async (tx, kind, filename, contentType, content) => {
        // A job canceled (or taken over) meanwhile keeps no file of this run.
        const held = await tx.select({ id: jobs.id }).from(jobs).where(mine);
        if (!held.length) throw new LeaseLost(job.id);
        await saveJobFile(tx, { jobId: job.id, kind, filename, contentType, content, now: clock.now() });
      },
    };
    // The job leaves this instance pending again, leased to nobody: claimable by any instance.
    const handBack = (fields: PgUpdateSetSource<typeof jobs>) =>
      database.db
        .update(jobs)
        .set({ status: 'pending', lease_owner: null, lease_until: null, ...fields })
        .where(mine);
    try {
      const result = await handler.run(ctx);
      if (abort.signal.aborted) throw abort.signal.reason;
      await this.finish(job.id, { status: 'succeeded', result: result ?? null });
    } catch (err) {
      if (err instanceof LeaseLost || abort.signal.reason instanceof LeaseLost) {
        // Another instance took it over (its lease ran out), or an admin canceled it.
        log.warn({ job: job.id }, 'job no longer held here (taken over or canceled); stopped');
      } else if (abort.signal.aborted) {
        // Stopping: hand it back unfailed, claimable at once by any instance.
        await handBack({ attempts: sql`greatest(${jobs.attempts} - 1, 0)` });
      } else if (err instanceof JobFailure || job.attempts >= max) {
        log.warn({ err, job: job.id }, 'job failed');
        await this.finish(job.id, { status: 'failed', error: (err as Error).message });
      } else {
        log.error({ err, job: job.id }, 'job run failed; will retry');
        await handBack({
          error: (err as Error).message,
          run_after: new Date(clock.now().getTime() + 5_000 * job.attempts),
        });
      }
    } finally {
      clearInterval(heartbeat);
    }
  }

  private async finish(
    id: string,
    end: { status: 'succeeded' | 'failed'; result?: Record<string, unknown> | null; error?: string },
  ): Promise<void> {
    const now = this.opts.clock.now();
    await this.opts.database.db
      .update(jobs)
      .set({
        status: end.status,
        ...(end.result !== undefined ? { result: end.result } : {}),
        error: end.error ?? null,
        lease_owner: null,
        lease_until: null,
        finished_at: now,
        updated_at: now,
      })
      .where(and(eq(jobs.id, id), eq(jobs.lease_owner, this.opts.owner)));
  }
}
