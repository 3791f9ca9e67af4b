import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.ts';
import { inTx } from '../context.ts';
import type { Database } from '../db/database.ts';
import type { Deliverable, DeliveryClient, Outcome } from './client.ts';
import { createAgents, postBody } from './http-post.ts';
import { OutcomeBatcher } from './outcome-batcher.ts';
import { verdictAfter } from './retry-plan.ts';
import { publicOnlyLookup, refusePrivateLiteral } from './url-guard.ts';

export interface AttemptOptions {
  database: Database;
  clock: Clock;
  log: FastifyBaseLogger;
  blockPrivate: boolean;
  timeoutMs: number;
}

/** Abort reason when the engine stops: the delivery is handed back unrecorded. */
export const STOPPED = Symbol('delivery engine stopped');
const TIMED_OUT = Symbol('timed out');

type Result = Pick<
  Outcome,
  'deliveryId' | 'leaseUntil' | 'attemptedAt' | 'statusCode' | 'responseBody' | 'error' | 'durationMs'
> & { ok: boolean };

/**
 * One try of one delivery: build the signed request and POST it (or hand it to the client's
 * in-process `deliver`), and record the outcome
 * (succeeded, retrying at the next step of the plan, or dead, told to the client in the
 * transaction that records it).
 */
export class AttemptRunner<T extends Deliverable> {
  readonly stats = { attempts: 0, succeeded: 0, failed: 0, dead: 0 };
  private agents = createAgents();
  private readonly outcomes: OutcomeBatcher;

  constructor(
    private readonly opts: AttemptOptions,
    private readonly client: DeliveryClient<T>,
  ) {
    this.outcomes = new OutcomeBatcher((batch) => client.record(opts.database.db, batch));
  }

  /** Closes idle keep-alive connections (after a stop). */
  resetConnections(): void {
    this.agents.destroy();
    this.agents = createAgents();
  }

  /** `requestDone` is called as soon as the HTTP exchange is over, before the bookkeeping. */
  async run(d: T, leaseUntil: Date, abort: AbortController, requestDone: () => void): Promise<void> {
    const { clock, database, timeoutMs, blockPrivate } = this.opts;
    const attemptedAt = clock.now();
    const base = { deliveryId: d.id, leaseUntil, attemptedAt };
    if (this.client.cancelled?.(d)) {
      requestDone();
      const closed = {
        ...base,
        finishedAt: attemptedAt,
        status: 'dead',
        nextAttemptAt: null,
        statusCode: null,
        durationMs: 0,
        error: null,
        responseBody: null,
        counted: false,
      } as const;
      await this.outcomes.add(closed);
      return;
    }
    const started = performance.now();
    const timer = setTimeout(() => abort.abort(TIMED_OUT), timeoutMs);
    let statusCode: number | null = null;
    let responseBody: string | null = null;
    let error: string | null = null;
    let ok = false;
    try {
      if (this.client.deliver) {
        // In-process: the abort also ends the wait when the receiver ignores the signal.
        const aborted = new Promise<never>((_, reject) =>
          abort.signal.addEventListener('abort', () => reject(abort.signal.reason), { once: true }),
        );
        aborted.catch(() => {}); // an abort after the send finished is nobody's error
        const res = await Promise.race([
          this.client.deliver(d, { signal: abort.signal, now: clock.now(), timeoutMs }),
          aborted,
        ]);
        responseBody = res.response?.slice(0, this.client.keepResponseBytes) ?? null;
        ok = true;
      } else {
        const req = this.client.request!(d, clock.now());
        const url = new URL(req.url);
        if (blockPrivate) refusePrivateLiteral(url);
        const res = await postBody(url, req.body, req.headers, this.agents, {
          signal: abort.signal,
          keepBytes: this.client.keepResponseBytes,
          lookup: blockPrivate ? publicOnlyLookup : undefined,
        });
        statusCode = res.status;
        ok = statusCode >= 200 && statusCode < 300;
        responseBody = res.body;
      }
      // PostgreSQL text cannot hold NUL; a receiver's binary answer must not break the bookkeeping.
      responseBody = responseBody?.replaceAll('\u0000', '') ?? null;
    } catch (err) {
      if (abort.signal.reason === STOPPED) {
        requestDone();
        await this.client.release(database.db, [d.id], leaseUntil);
        return;
      }
      error =
        abort.signal.reason === TIMED_OUT
          ? `no answer within ${timeoutMs} ms`
          : err instanceof Error
            ? err.message
            : String(err);
    } finally {
      clearTimeout(timer);
    }
    requestDone();
    await this.settle(d, {
      ...base,
      ok,
      statusCode,
      responseBody,
      error,
      durationMs: Math.round(performance.now() - started),
    });
  }

  private async settle(d: T, r: Result): Promise<void> {
    const { clock, database, log } = this.opts;
    const finishedAt = clock.now();
    const { ok, ...result } = r;
    const outcome: Outcome = {
      ...result,
      finishedAt,
      ...verdictAfter(ok, d.attempt_count, finishedAt),
      counted: true,
    };
    this.stats.attempts++;
    this.stats[outcome.status === 'succeeded' ? 'succeeded' : 'failed']++;
    if (outcome.status !== 'dead') {
      await this.outcomes.add(outcome);
      return;
    }
    this.stats.dead++;
    // The dead letter and whoever is told about it commit together, and only if the lease was still ours.
    await inTx({ db: database.db, clock, log }, async (tctx) => {
      if (!(await this.client.record(tctx.tx, [outcome])).size) return;
      await this.client.onDead(tctx, d, outcome);
    });
  }
}
