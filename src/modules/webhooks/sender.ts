import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../platform/clock.ts';
import { inTx } from '../../platform/context.ts';
import { decryptSecret } from '../../platform/crypto.ts';
import type { Database } from '../../platform/db/database.ts';
import { newId } from '../../platform/ids.ts';
import { createNotification } from '../notifications/service.ts';
import { claimDueDeliveries, recordAttempts, releaseClaims, type AttemptOutcome, type ClaimedDelivery } from './delivery-queries.ts';
import { createAgents, postBody } from './http-post.ts';
import { OutcomeBatcher } from './outcome-batcher.ts';
import { nextRetryAt } from './retry-plan.ts';
import { signatureHeader } from './sign.ts';
import { publicOnlyLookup, refusePrivateLiteral } from './url-guard.ts';

export interface SenderOptions {
  database: Database;
  clock: Clock;
  log: FastifyBaseLogger;
  encryptionKey: string;
  /** Production without WEBHOOK_ALLOW_PRIVATE: refuse private addresses at connect time. */
  blockPrivate: boolean;
  /** A receiver must answer (whole body) within this; default 30 s (spec section 8). */
  timeoutMs?: number;
  /** Requests in flight at most, across all subscriptions. */
  concurrency?: number;
  /** In flight at most per subscription, so one hanging receiver cannot take the whole pool. */
  perSubscription?: number;
  /** Claim lease; must outlast a send (default timeout + 30 s), or another sender may retry it meanwhile. */
  leaseMs?: number;
  /** How often a started sender looks for due retries. */
  pollMs?: number;
}

const RESPONSE_BYTES_KEPT = 1024;
const STOPPED = Symbol('sender stopped');
const TIMED_OUT = Symbol('timed out');

interface Flight {
  abort: AbortController;
  done: Promise<void>;
}

/**
 * Sends due webhook deliveries: claims them with a lease, runs each as its own task in a
 * bounded pool (a slow receiver only holds its own slots), records an attempt per try and
 * schedules the retry or dead-letters. Woken by kick() after fan-out and by a timer for retries.
 */
export class WebhookSender {
  readonly stats = { attempts: 0, succeeded: 0, failed: 0, dead: 0 };
  private readonly timeoutMs: number;
  private readonly concurrency: number;
  private readonly perSubscription: number;
  private readonly leaseMs: number;
  private readonly inFlight = new Map<string, Flight>();
  /** Requests running now (the pool), in total and per subscription. */
  private sending = 0;
  private readonly perSub = new Map<string, number>();
  private agents = createAgents();
  private readonly outcomes: OutcomeBatcher;
  private readonly secrets = new Map<string, string>();
  private started = false;
  private stopping = false;
  private draining = 0;
  private pumping: Promise<void> | null = null;
  private again = false;
  private poolWasFull = false;
  private timer?: NodeJS.Timeout;

  constructor(private readonly opts: SenderOptions) {
    this.timeoutMs = opts.timeoutMs ?? 30_000;
    this.concurrency = opts.concurrency ?? 128;
    this.perSubscription = opts.perSubscription ?? 32;
    this.leaseMs = opts.leaseMs ?? this.timeoutMs + 30_000;
    this.outcomes = new OutcomeBatcher((batch) => recordAttempts(opts.database.db, batch));
  }

  start(): void {
    this.started = true;
    this.timer = setInterval(() => this.kick(), this.opts.pollMs ?? 1000);
    this.timer.unref();
    this.kick();
  }

  /** Aborts what is in flight (those deliveries are released unrecorded, due at once for any sender). */
  async stop(): Promise<void> {
    this.started = false;
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    await this.pumping;
    for (const f of this.inFlight.values()) f.abort.abort(STOPPED);
    await Promise.all([...this.inFlight.values()].map((f) => f.done));
    this.agents.destroy();
    this.agents = createAgents();
    this.stopping = false;
  }

  /** Something may be due: fill the pool (no-op unless started; tests use drain()). */
  kick(): void {
    if (this.started) void this.pump();
  }

  /** Sends everything due now and waits until those attempts are recorded. */
  async drain(): Promise<void> {
    this.draining++;
    try {
      for (;;) {
        await this.pump();
        if (this.inFlight.size === 0) return;
        await Promise.all([...this.inFlight.values()].map((f) => f.done));
      }
    } finally {
      this.draining--;
    }
  }

  /** Overlapping calls coalesce into one more pass of the running pump. */
  private pump(): Promise<void> {
    if (this.pumping) {
      this.again = true;
      return this.pumping;
    }
    this.pumping = (async () => {
      try {
        do {
          this.again = false;
          await this.fill();
        } while (this.again);
      } catch (err) {
        this.opts.log.error({ err }, 'webhook claim failed; will retry');
      } finally {
        this.pumping = null;
      }
    })();
    return this.pumping;
  }

  private async fill(): Promise<void> {
    while (!this.stopping) {
      const free = this.concurrency - this.sending;
      if (free <= 0) return;
      const now = this.opts.clock.now();
      const leaseUntil = new Date(now.getTime() + this.leaseMs);
      const room: Record<string, number> = {};
      for (const [id, n] of this.perSub) room[id] = this.perSubscription - n;
      const claimed = await claimDueDeliveries(this.opts.database.db, { now, leaseUntil, limit: free, perSubscription: this.perSubscription, room });
      for (const d of claimed) this.launch(d, leaseUntil);
      this.poolWasFull = claimed.length === free;
      if (!this.poolWasFull) return;
    }
  }

  /**
   * A delivery holds its pool slot while its request runs; the bookkeeping that follows (batched)
   * only keeps it in `inFlight`, which drain() and stop() wait for.
   */
  private launch(d: ClaimedDelivery, leaseUntil: Date): void {
    const abort = new AbortController();
    this.sending++;
    this.perSub.set(d.subscription_id, (this.perSub.get(d.subscription_id) ?? 0) + 1);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.sending--;
      const left = (this.perSub.get(d.subscription_id) ?? 1) - 1;
      if (left > 0) this.perSub.set(d.subscription_id, left);
      else this.perSub.delete(d.subscription_id);
      // Refill in chunks, not with a claim per completion: when this subscription's share is
      // half free, or when the pool had been full (other work may be waiting) and has room again.
      const free = this.concurrency - this.sending;
      const worthIt = left <= this.perSubscription / 2 || (this.poolWasFull && free >= this.perSubscription / 2);
      if ((this.started || this.draining) && worthIt) void this.pump();
    };
    const done = this.deliver(d, leaseUntil, abort, release)
      .catch((err) => this.opts.log.error({ err, deliveryId: d.id }, 'webhook delivery bookkeeping failed; the lease will expire'))
      .finally(() => {
        release();
        this.inFlight.delete(d.id);
      });
    this.inFlight.set(d.id, { abort, done });
  }

  private async deliver(d: ClaimedDelivery, leaseUntil: Date, abort: AbortController, release: () => void): Promise<void> {
    const { clock, database } = this.opts;
    const attemptedAt = clock.now();
    const base = { attemptId: newId('wha'), deliveryId: d.id, leaseUntil, attemptedAt };
    if (!d.live) {
      // Deactivated or deleted after this was queued: close it without an attempt.
      const outcome = { ...base, finishedAt: attemptedAt, status: 'dead', nextAttemptAt: null, statusCode: null, durationMs: 0, error: null, responseBody: null, counted: false } as const;
      await this.outcomes.add(outcome);
      return;
    }
    const started = performance.now();
    const timer = setTimeout(() => abort.abort(TIMED_OUT), this.timeoutMs);
    let statusCode: number | null = null;
    let responseBody: string | null = null;
    let error: string | null = null;
    try {
      const url = new URL(d.url);
      if (this.opts.blockPrivate) refusePrivateLiteral(url);
      const secret = this.secretOf(d.secret_encrypted);
      const headers = {
        'content-type': 'application/json',
        'user-agent': 'Emporium-Webhooks/1',
        'x-service-event': d.event,
        'x-service-delivery-id': d.id,
        'x-service-signature': signatureHeader(secret, clock.now(), d.body),
      };
      const res = await postBody(url, d.body, headers, this.agents, {
        signal: abort.signal,
        keepBytes: RESPONSE_BYTES_KEPT,
        lookup: this.opts.blockPrivate ? publicOnlyLookup : undefined,
      });
      statusCode = res.status;
      // PostgreSQL text cannot hold NUL; a receiver's binary answer must not break the bookkeeping.
      responseBody = res.body.replaceAll('\u0000', '');
    } catch (err) {
      if (abort.signal.reason === STOPPED) {
        await releaseClaims(database.db, [d.id], leaseUntil);
        return;
      }
      error = abort.signal.reason === TIMED_OUT ? `no answer within ${this.timeoutMs} ms` : err instanceof Error ? err.message : String(err);
    } finally {
      clearTimeout(timer);
      release();
    }
    await this.settle(d, { ...base, statusCode, responseBody, error, durationMs: Math.round(performance.now() - started) });
  }

  /** Decrypted secrets by their stored blob (a changed secret is a new blob), so each is decrypted once. */
  private secretOf(blob: string): string {
    let secret = this.secrets.get(blob);
    if (secret === undefined) {
      secret = decryptSecret(this.opts.encryptionKey, blob);
      if (this.secrets.size >= 1000) this.secrets.clear();
      this.secrets.set(blob, secret);
    }
    return secret;
  }

  private async settle(d: ClaimedDelivery, r: Pick<AttemptOutcome, 'attemptId' | 'deliveryId' | 'leaseUntil' | 'attemptedAt' | 'statusCode' | 'responseBody' | 'error' | 'durationMs'>) {
    const { clock, database, log } = this.opts;
    const finishedAt = clock.now();
    const ok = r.statusCode !== null && r.statusCode >= 200 && r.statusCode < 300;
    const next = ok ? null : nextRetryAt(d.attempt_count + 1, finishedAt);
    const status = ok ? 'succeeded' : next ? 'retrying' : 'dead';
    const outcome: AttemptOutcome = { ...r, finishedAt, status, nextAttemptAt: next, counted: true };
    this.stats.attempts++;
    this.stats[ok ? 'succeeded' : 'failed']++;
    if (status !== 'dead') {
      await this.outcomes.add(outcome);
      return;
    }
    this.stats.dead++;
    const ctx = { db: database.db, clock, log };
    await inTx(ctx, async (tctx) => {
      if (!(await recordAttempts(tctx.tx, [outcome])).size) return;
      await createNotification(tctx, {
        type: 'webhook.failing',
        title: 'Webhook endpoint failing',
        message: `Delivery ${d.id} of ${d.event} to ${d.url} failed ${d.attempt_count + 1} times and was moved to the dead-letter list: ${r.error ?? `HTTP ${r.statusCode}`}`,
        data: { webhook_id: d.subscription_id, delivery_id: d.id },
      });
    });
  }
}
