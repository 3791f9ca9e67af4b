import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from './clock.ts';
import type { Db, Executor, Tx } from './db/database.ts';
import type { Providers } from './providers.ts';
import { transaction } from './db/prepared.ts';

/** A built-in role's name (`owner`, `admin`, `viewer`, `fulfilment`, `support`) or a custom role's id. */
export type Role = string;

/**
 * Who is acting: an admin user, a secret API key (which acts with the admin role), or, on a
 * marketplace, a vendor's API token: `vendor` holds whose and what it may do, and such an actor
 * reaches only the routes that declare a vendor scope (auth/admin-guard.ts).
 */
export interface Actor {
  type: 'user' | 'api_key' | 'vendor';
  id: string;
  role: Role | 'vendor';
  /** The role's permission patterns (`*:read`, `orders:refund`), read with the user on each request. */
  permissions: readonly string[];
  vendor?: { id: string; scopes: readonly string[] };
}

/** Passed first to every service call: no container, every dependency in sight. */
export interface Ctx {
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  actor?: Actor;
  /** How amounts are written in this request's answers (SQL-rendered JSON reads it); minor when absent. */
  amountUnits?: 'minor' | 'major';
  /** The running plugins' providers (a cart's tax provider); absent in jobs that price no cart. */
  providers?: Providers;
  /** Set for an admin write (modules/audit): its entry is written by the first transaction inTx commits. */
  audit?: AuditScope;
  /**
   * Answers of providers asked with no transaction open, by the exact question: a transaction that
   * needs one not among them stops, and it is asked before the transaction runs again, never while
   * it holds locks (cart-pricing/tax-answers.ts).
   */
  providerAnswers?: Map<string, unknown>;
}

/**
 * A request's audit entry, written once. `begin` names the entry for the transaction (so the
 * watched tables' triggers file their before/after values under it); `record` appends the entry.
 */
export interface AuditScope {
  recorded: boolean;
  begin(tx: Executor): Promise<void>;
  /** `result`: what the write produced (the service's return value, or the answer's body), where a create's new id is found. */
  record(exec: Executor, inTransaction: boolean, result?: unknown): Promise<void>;
}

export interface TxCtx extends Ctx {
  tx: Tx;
}

/** Runs fn in one transaction. Inside, use only `tctx.tx` (on PGlite, touching `db` there deadlocks). */
export function inTx<T>(ctx: Ctx, fn: (tctx: TxCtx) => Promise<T>): Promise<T> {
  const audit = ctx.audit;
  if (!audit || audit.recorded) return transaction(ctx.db, (tx) => fn({ ...ctx, tx }));
  // An admin write: its audit entry commits with it, or not at all.
  audit.recorded = true;
  return transaction(ctx.db, async (tx) => {
    await audit.begin(tx);
    const result = await fn({ ...ctx, tx });
    await audit.record(tx, true, result);
    return result;
  }).catch((err) => {
    audit.recorded = false;
    throw err;
  });
}

/** The caller's transaction when there is one, else the pool: on PGlite, touching `db` inside a transaction deadlocks. */
export function executor(ctx: Ctx): Executor {
  return (ctx as Partial<TxCtx>).tx ?? ctx.db;
}
