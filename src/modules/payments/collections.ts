import type { SQL } from 'drizzle-orm';
import { executor, type Ctx, type TxCtx } from '../../platform/context.ts';
import { writeTogether } from '../../platform/db/one-statement.ts';
import { newId } from '../../platform/ids.ts';
import * as q from './queries.ts';
import type { SessionRow } from './queries.ts';
import type { PaymentCollectionView } from './schema.ts';

/**
 * A cart's payment collection before checkout: opened once per cart, a session per chosen
 * provider, its amount kept in step with the cart total. Checkout calls these inside its cart
 * transaction; this module knows the cart only by id.
 */

export const findCollection = (ctx: Ctx, id: string) => q.findCollection(ctx.db, id);

/** Opens the cart's collection unless it has one (the unique cart_id decides a race). */
export async function openCollection(tctx: TxCtx, cartId: string, currency: string): Promise<void> {
  const now = tctx.clock.now();
  await q.insertCollection(tctx.tx, {
    id: newId('pay_col'),
    cart_id: cartId,
    currency_code: currency,
    amount: 0, // set to the cart total by syncCollectionAmount, with the rest of the cart
    status: 'not_paid',
    created_at: now,
    updated_at: now,
  });
}

/**
 * Replaces the collection's sessions with a new one for this provider (pending, or what the
 * provider answered when it was initiated); the collection awaits payment.
 */
export async function startSession(
  tctx: TxCtx,
  collectionId: string,
  input: {
    id?: string;
    provider_id: string;
    currency: string;
    data?: Record<string, unknown>;
    status?: SessionRow['status'];
  },
): Promise<void> {
  const now = tctx.clock.now();
  await q.deleteSessions(tctx.tx, collectionId);
  await q.insertSession(tctx.tx, {
    id: input.id ?? newId('payses'),
    payment_collection_id: collectionId,
    provider_id: input.provider_id,
    currency_code: input.currency,
    amount: 0, // set to the cart total by syncCollectionAmount
    status: input.status ?? 'pending',
    data: input.data ?? {},
    created_at: now,
    updated_at: now,
  });
  await q.updateCollection(tctx.tx, collectionId, { status: 'awaiting', updated_at: now });
}

/**
 * The collection (and its pending sessions) moved to the cart's current total and currency, and
 * the writes that move it (none when already in step), for the caller's statement.
 */
export function collectionInStep(
  ctx: Ctx,
  pc: PaymentCollectionView,
  amount: number,
  currency: string,
): { collection: PaymentCollectionView; writes: SQL[] } {
  const inStep = (x: { amount: number; currency_code: string }) => x.amount === amount && x.currency_code === currency;
  if (inStep(pc) && pc.payment_sessions.every((s) => s.status !== 'pending' || inStep(s)))
    return { collection: pc, writes: [] };
  const now = ctx.clock.now();
  const sessions = pc.payment_sessions.map((s) =>
    s.status === 'pending' ? { ...s, amount, currency_code: currency, updated_at: now } : s,
  );
  return {
    collection: { ...pc, amount, currency_code: currency, updated_at: now, payment_sessions: sessions },
    writes: q.collectionAmountWrites(pc.id, amount, currency, now),
  };
}

/** Moves the collection (and its pending sessions) to the cart's current total and currency. */
export async function syncCollectionAmount(
  tctx: TxCtx,
  pc: PaymentCollectionView,
  amount: number,
  currency: string,
): Promise<PaymentCollectionView> {
  const { collection, writes } = collectionInStep(tctx, pc, amount, currency);
  if (writes.length) await writeTogether(tctx.tx, writes);
  return collection;
}

/** What a provider said about a session outside checkout (a failed authorization, a webhook): its status and data. */
export async function setSessionOutcome(
  ctx: Ctx,
  sessionId: string,
  outcome: { status: SessionRow['status']; data?: Record<string, unknown> },
): Promise<void> {
  await q.updateSession(executor(ctx), sessionId, { ...outcome, updated_at: ctx.clock.now() });
}

export const findSession = (ctx: Ctx, id: string) => q.findSession(executor(ctx), id);
