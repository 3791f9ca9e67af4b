import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../platform/clock.ts';
import { inTx } from '../../platform/context.ts';
import { decryptSecret } from '../../platform/crypto.ts';
import type { Database } from '../../platform/db/database.ts';
import { newId } from '../../platform/ids.ts';
import { createNotification } from '../notifications/service.ts';
import { recordAttempts, releaseClaims, type AttemptOutcome, type ClaimedDelivery } from './delivery-queries.ts';
import { createAgents, postBody } from './http-post.ts';
import { OutcomeBatcher } from './outcome-batcher.ts';
import { nextRetryAt } from './retry-plan.ts';
import { signatureHeader } from './sign.ts';
import { publicOnlyLookup, refusePrivateLiteral } from './url-guard.ts';

export interface AttemptOptions {
  database: Database;
  clock: Clock;
  log: FastifyBaseLogger;
  encryptionKey: string;
  blockPrivate: boolean;
  timeoutMs: number;
}

/** Abort reason when the sender stops: the delivery is handed back unrecorded. */
export const STOPPED = Symbol('sender stopped');
const TIMED_OUT = Symbol('timed out');
const RESPONSE_BYTES_KEPT = 1024;

type Result = Pick<AttemptOutcome, 'attemptId' | 'deliveryId' | 'leaseUntil' | 'attemptedAt' | 'statusCode' | 'responseBody' | 'error' | 'durationMs'>;

/**
 * One try of one delivery: sign the stored body, POST it, and record the outcome (succeeded,
 * retrying at the next step of the schedule, or dead with an admin notification).
 */
export class AttemptRunner {
  readonly stats = { attempts: 0, succeeded: 0, failed: 0, dead: 0 };
  private agents = createAgents();
  private readonly outcomes: OutcomeBatcher;
  private readonly secrets = new Map<string, string>();

  constructor(private readonly opts: AttemptOptions) {
    this.outcomes = new OutcomeBatcher((batch) => recordAttempts(opts.database.db, batch));
  }

  /** Closes idle keep-alive connections (after a stop). */
  resetConnections(): void {
    this.agents.destroy();
    this.agents = createAgents();
  }

  /** `requestDone` is called as soon as the HTTP exchange is over, before the bookkeeping. */
  async run(d: ClaimedDelivery, leaseUntil: Date, abort: AbortController, requestDone: () => void): Promise<void> {
    const { clock, database } = this.opts;
    const attemptedAt = clock.now();
    const base = { attemptId: newId('wha'), deliveryId: d.id, leaseUntil, attemptedAt };
    if (!d.live) {
      // Deactivated or deleted after this was queued: close it without an attempt.
      requestDone();
      const closed = { ...base, finishedAt: attemptedAt, status: 'dead', nextAttemptAt: null, statusCode: null, durationMs: 0, error: null, responseBody: null, counted: false } as const;
      await this.outcomes.add(closed);
      return;
    }
    const started = performance.now();
    const timer = setTimeout(() => abort.abort(TIMED_OUT), this.opts.timeoutMs);
    let statusCode: number | null = null;
    let responseBody: string | null = null;
    let error: string | null = null;
    try {
      const url = new URL(d.url);
      if (this.opts.blockPrivate) refusePrivateLiteral(url);
      const headers = {
        'content-type': 'application/json',
        'user-agent': 'Emporium-Webhooks/1',
        'x-service-event': d.event,
        'x-service-delivery-id': d.id,
        'x-service-signature': signatureHeader(this.secretOf(d.secret_encrypted), clock.now(), d.body),
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
        requestDone();
        await releaseClaims(database.db, [d.id], leaseUntil);
        return;
      }
      error = abort.signal.reason === TIMED_OUT ? `no answer within ${this.opts.timeoutMs} ms` : err instanceof Error ? err.message : String(err);
    } finally {
      clearTimeout(timer);
    }
    requestDone();
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

  private async settle(d: ClaimedDelivery, r: Result): Promise<void> {
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
    await inTx({ db: database.db, clock, log }, async (tctx) => {
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
