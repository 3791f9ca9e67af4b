import type { TxCtx } from '../context.ts';
import type { Executor } from '../db/database.ts';

/** What every ledger row the engine sends carries. */
export interface Deliverable {
  /** The same on every retry (sent as X-Service-Delivery-Id), so a receiver can deduplicate. */
  id: string;
  /** Attempts recorded before this one. */
  attempt_count: number;
}

export type OutcomeStatus = 'succeeded' | 'retrying' | 'dead';

/** How one try ended, as the client's ledger records it. */
export interface Outcome {
  deliveryId: string;
  /** The lease this engine holds: the row changes only if it is still ours. */
  leaseUntil: Date;
  attemptedAt: Date;
  finishedAt: Date;
  status: OutcomeStatus;
  nextAttemptAt: Date | null;
  /** Null when no HTTP answer came (timeout, refused connection, blocked address). */
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  /** The first `keepResponseBytes` of the answer, NUL characters removed. */
  responseBody: string | null;
  /** False for an attempt that was never made (cancelled): only the status changes. */
  counted: boolean;
}

/**
 * A claim takes at most `limit` rows. A client whose receivers may pile up many due rows also
 * takes at most `room[group]` (groups not listed: `perGroup`) per group, so a hanging receiver's
 * backlog is neither claimed nor scanned on every claim; the pool limits sends per group either way.
 */
export interface ClaimOptions {
  now: Date;
  leaseUntil: Date;
  limit: number;
  perGroup: number;
  /** What each group with claimed rows still held may get. */
  room: Record<string, number>;
}

export interface OutboundRequest {
  url: string;
  /** The exact bytes sent (and signed). */
  body: string;
  headers: Record<string, string>;
}

/**
 * What a kind of outbound delivery supplies to the engine: its ledger (claim, release, record)
 * and how its requests are built and signed. Everything else (lease, pool, timeout, retry plan,
 * dead letter, URL guard, batching) is the engine's.
 */
export interface DeliveryClient<T extends Deliverable> {
  /** Names the work in logs ("webhook", "license callback"). */
  name: string;
  /**
   * Leases due rows until `leaseUntil`, oldest due first, with `FOR UPDATE SKIP LOCKED` so that
   * engines on other instances never take the same row; an expired lease makes a row due again.
   */
  claim(db: Executor, opts: ClaimOptions): Promise<T[]>;
  /** Gives claimed rows back unsent (pool limits, shutdown) while the lease is still ours. */
  release(db: Executor, ids: string[], leaseUntil: Date): Promise<void>;
  /** Writes a batch of outcomes where the lease is still held; returns the ids it updated. */
  record(db: Executor, outcomes: Outcome[]): Promise<Set<string>>;
  /** The receiver a row goes to: one hanging receiver holds at most `perGroup` slots. */
  groupOf(item: T): string;
  /**
   * The HTTP request, signed now (receivers reject old signatures, so each retry is signed
   * afresh). A client that does not send HTTP supplies `deliver` instead.
   */
  request?(item: T, now: Date): OutboundRequest;
  /**
   * An in-process send (a notification provider's `send`), for clients that do not POST: resolves
   * when the receiver accepted it (the attempt succeeded), rejects with the reason otherwise. It
   * should give up when `signal` aborts; the engine stops waiting at its timeout either way.
   */
  deliver?(item: T, opts: { signal: AbortSignal; now: Date; timeoutMs: number }): Promise<{ response: string | null }>;
  /** How much of an answer is kept for the ledger. */
  keepResponseBytes: number;
  /** True when the row must not be sent any more: it is closed as dead without an attempt. */
  cancelled?(item: T): boolean;
  /** In the transaction that recorded the dead letter: tell someone (it commits with the record). */
  onDead(tctx: TxCtx, item: T, outcome: Outcome): Promise<void>;
}
