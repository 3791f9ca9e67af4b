import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../platform/clock.ts';
import type { Ctx } from '../../platform/context.ts';
import type { Database } from '../../platform/db/database.ts';
import { CoalescingPump } from '../../platform/jobs/coalescing-pump.ts';
import { createNotification } from '../notifications/service.ts';
import { createAgents, postBody } from '../webhooks/http-post.ts';
import { nextRetryAt } from '../webhooks/retry-plan.ts';
import { publicOnlyLookup, refusePrivateLiteral } from '../webhooks/url-guard.ts';
import { CALLBACK_CHANNEL, claimDueCallbacks, recordCallbackAttempt, releaseCallback, type CallbackRow } from './callback-queries.ts';
import { callbackSignature } from './callback-signature.ts';
import { ensureSigningKey, type SigningKey } from './signing-keys.ts';

export interface CallbackSenderOptions {
  database: Database;
  clock: Clock;
  log: FastifyBaseLogger;
  encryptionKey: string;
  /** Production without WEBHOOK_ALLOW_PRIVATE: refuse private addresses, as for webhooks. */
  blockPrivate: boolean;
  /** A shop must answer within this (default 30 s, like webhooks). */
  timeoutMs?: number;
  pollMs?: number;
}

const BATCH = 16;
const STOPPED = Symbol('sender stopped');
const TIMED_OUT = Symbol('timed out');

/**
 * Sends license-issued callbacks to shops (marketplace role): woken by the NOTIFY of a committed
 * completion and by a timer for retries. Each callback is claimed with a lease, POSTed with an
 * Ed25519 X-Service-Signature made at send time (shops reject signatures older than 5 minutes),
 * and on failure retried on the webhook schedule (1m, 5m, 30m, 2h, 12h), then dead.
 */
export class LicenceCallbackSender {
  readonly stats = { attempts: 0, succeeded: 0, failed: 0, dead: 0 };
  private readonly timeoutMs: number;
  private readonly inFlight = new Set<AbortController>();
  private agents = createAgents();
  private readonly pump = new CoalescingPump(
    async () => {
      while ((await this.pass()) > 0);
    },
    (err) => this.opts.log.error({ err }, 'licence callback pass failed; will retry'),
  );
  private timer?: NodeJS.Timeout;
  private unlisten?: () => Promise<void>;

  constructor(private readonly opts: CallbackSenderOptions) {
    this.timeoutMs = opts.timeoutMs ?? 30_000;
  }

  async start(): Promise<void> {
    this.unlisten = await this.opts.database.listen(CALLBACK_CHANNEL, () => this.kick());
    this.timer = setInterval(() => this.kick(), this.opts.pollMs ?? 1000);
    this.timer.unref();
    this.kick();
  }

  /** Aborts what is in flight: those callbacks are released unattempted, due at once for any sender. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.unlisten?.();
    this.unlisten = undefined;
    for (const abort of this.inFlight) abort.abort(STOPPED);
    await this.pump.idle();
    this.agents.destroy();
    this.agents = createAgents();
  }

  kick(): void {
    if (this.timer) void this.pump.run();
  }

  /** Sends every callback due now and waits for the outcomes (tests call this with the fake clock). */
  drain(): Promise<void> {
    return this.pump.run();
  }

  /** One batch: claim, send in parallel, record. Returns how many were claimed. */
  private async pass(): Promise<number> {
    const { database, clock, encryptionKey } = this.opts;
    const now = clock.now();
    const leaseUntil = new Date(now.getTime() + this.timeoutMs + 30_000);
    const claimed = await claimDueCallbacks(database.db, { now, leaseUntil, limit: BATCH });
    if (!claimed.length) return 0;
    const key = await ensureSigningKey(this.ctx(), encryptionKey);
    await Promise.all(claimed.map((c) => this.deliver(c, key, leaseUntil)));
    return claimed.length;
  }

  private ctx(): Ctx {
    return { db: this.opts.database.db, clock: this.opts.clock, log: this.opts.log };
  }

  private async deliver(c: CallbackRow, key: SigningKey, leaseUntil: Date): Promise<void> {
    const { clock, database } = this.opts;
    const abort = new AbortController();
    this.inFlight.add(abort);
    const timer = setTimeout(() => abort.abort(TIMED_OUT), this.timeoutMs);
    let statusCode: number | null = null;
    let error: string | null = null;
    try {
      const url = new URL(c.url);
      if (this.opts.blockPrivate) refusePrivateLiteral(url);
      const headers = {
        'content-type': 'application/json',
        'user-agent': 'Emporium-Marketplace/1',
        'x-service-event': 'license.issued',
        'x-service-delivery-id': c.id,
        'x-service-key-id': key.keyId,
        'x-service-signature': callbackSignature(key, clock.now(), c.body),
      };
      const lookup = this.opts.blockPrivate ? publicOnlyLookup : undefined;
      statusCode = (await postBody(url, c.body, headers, this.agents, { signal: abort.signal, keepBytes: 0, lookup })).status;
    } catch (err) {
      if (abort.signal.reason === STOPPED) return void (await releaseCallback(database.db, c.id, leaseUntil));
      error = abort.signal.reason === TIMED_OUT ? `no answer within ${this.timeoutMs} ms` : (err as Error).message;
    } finally {
      clearTimeout(timer);
      this.inFlight.delete(abort);
    }
    await this.settle(c, leaseUntil, statusCode, error);
  }

  private async settle(c: CallbackRow, leaseUntil: Date, statusCode: number | null, error: string | null): Promise<void> {
    const at = this.opts.clock.now();
    const ok = statusCode !== null && statusCode >= 200 && statusCode < 300;
    const next = ok ? null : nextRetryAt(c.attempt_count + 1, at);
    const status = ok ? 'succeeded' : next ? 'pending' : 'dead';
    const recorded = await recordCallbackAttempt(this.opts.database.db, c.id, leaseUntil, { status, nextAttemptAt: next, statusCode, error: ok ? null : (error ?? `HTTP ${statusCode}`), at });
    this.stats.attempts++;
    this.stats[ok ? 'succeeded' : 'failed']++;
    if (status !== 'dead' || !recorded) return;
    this.stats.dead++;
    // The shop can still pull the key from GET /store/marketplace/checkout/session/{id}; the operator should know.
    await createNotification(this.ctx(), {
      type: 'marketplace.callback_failed',
      title: 'Licence callback failing',
      message: `license-issued for checkout ${c.checkout_session_id} to ${c.url} failed ${c.attempt_count + 1} times and was given up: ${error ?? `HTTP ${statusCode}`}`,
      data: { checkout_session_id: c.checkout_session_id, callback_id: c.id },
      dedupeKey: `marketplace.callback_failed:${c.id}`,
    });
  }
}
