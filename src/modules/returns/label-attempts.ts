import { createHash } from 'node:crypto';
import { and, eq, lt, ne, or } from 'drizzle-orm';
import type { Ctx } from '../../platform/context.ts';
import type { Executor } from '../../platform/db/database.ts';
import { errors } from '../../platform/http/errors.ts';
import { newId } from '../../platform/ids.ts';
import type { Providers } from '../../platform/providers.ts';
import { callFulfillmentProvider, carrierCallLostAfterMs } from '../fulfillment/providers.ts';
import { returnLabelAttempts, returns } from './tables.ts';

/**
 * The return labels being asked of a carrier (return_label_attempts), each written before its
 * carrier is asked and outside any transaction, so it outlives the locked step that stopped for it.
 */

/** A digest of what the carrier is asked: the same label asked again has the same one. */
export const questionDigest = (question: string) => createHash('sha256').update(question).digest('hex');

/**
 * Takes the attempt at this label for one carrier call and answers its id: a new one, or the id of
 * one whose carrier did not answer (or whose `calling` is older than `lostAfterMs`: its request was
 * lost), so the carrier is asked with the same idempotency key. One being asked right now is a 409.
 */
export async function claimLabelAttempt(
  db: Executor,
  at: { order_id: string; return_id: string; provider_id: string; question: string },
  now: Date,
  lostAfterMs: number,
): Promise<string> {
  const question = questionDigest(at.question);
  const [fresh] = await db
    .insert(returnLabelAttempts)
    .values({
      id: newId('ful'),
      order_id: at.order_id,
      return_id: at.return_id,
      provider_id: at.provider_id,
      question,
      state: 'calling',
      created_at: now,
      updated_at: now,
    })
    .onConflictDoNothing()
    .returning({ id: returnLabelAttempts.id });
  if (fresh) return fresh.id;
  const [retried] = await db
    .update(returnLabelAttempts)
    .set({ state: 'calling', return_id: at.return_id, updated_at: now })
    .where(
      and(
        eq(returnLabelAttempts.order_id, at.order_id),
        eq(returnLabelAttempts.question, question),
        eq(returnLabelAttempts.provider_id, at.provider_id),
        or(
          eq(returnLabelAttempts.state, 'unanswered'),
          lt(returnLabelAttempts.updated_at, new Date(now.getTime() - lostAfterMs)),
        ),
      ),
    )
    .returning({ id: returnLabelAttempts.id });
  if (retried) return retried.id;
  throw errors.conflict('return_label_pending', { order: at.order_id });
}

/** Its carrier did not answer in time: the next ask of this label takes it over. */
export async function markLabelUnanswered(db: Executor, id: string, now: Date): Promise<void> {
  await db
    .update(returnLabelAttempts)
    .set({ state: 'unanswered', updated_at: now })
    .where(eq(returnLabelAttempts.id, id));
}

/** The label is kept on a return, or the carrier refused (or its label was canceled): no attempt left. */
export async function dropLabelAttempt(db: Executor, id: string): Promise<void> {
  await db.delete(returnLabelAttempts).where(eq(returnLabelAttempts.id, id));
}

/** Waiting for a retry: its carrier did not answer, or its call was lost (`calling` too long ago). */
const waiting = (cutoff: Date) =>
  or(eq(returnLabelAttempts.state, 'unanswered'), lt(returnLabelAttempts.updated_at, cutoff));

/**
 * Drops the label attempts of the order that no retry can take over any more, and asks their
 * carrier to cancel what it may have made under their id (`cancelFulfillment` with that id and no
 * data: the carrier never answered with any). No retry can take an attempt over once its return is
 * no longer being requested (confirmed, received, canceled; or gone: a store return whose step
 * rolled back, which the shopper's retry recreates), or once its request changed: `newer` was
 * made for the same return, or the return is one of `changed` (its items, option or location
 * changed since; changed back, it asks a new label). Runs with no transaction open: each
 * attempt is deleted before its carrier is asked, so two sweeps never cancel one twice; a carrier
 * that refuses is logged with the id under which it may still hold a label.
 */
export async function sweepLabelAttempts(
  ctx: Ctx,
  providers: Providers,
  orderId: string,
  newer?: { id: string; return_id: string },
  changed: ReadonlySet<string> = new Set(),
): Promise<void> {
  const cutoff = new Date(ctx.clock.now().getTime() - carrierCallLostAfterMs(providers));
  const found = await ctx.db
    .select({ id: returnLabelAttempts.id, return_id: returnLabelAttempts.return_id, status: returns.status })
    .from(returnLabelAttempts)
    .leftJoin(returns, eq(returns.id, returnLabelAttempts.return_id))
    .where(and(eq(returnLabelAttempts.order_id, orderId), waiting(cutoff)));
  for (const a of found) {
    const superseded =
      (!!newer && a.return_id === newer.return_id && a.id !== newer.id) || (!!a.return_id && changed.has(a.return_id));
    if (a.status === 'open' && !superseded) continue;
    const [gone] = await ctx.db
      .delete(returnLabelAttempts)
      .where(
        and(
          eq(returnLabelAttempts.id, a.id),
          waiting(cutoff),
          newer ? ne(returnLabelAttempts.id, newer.id) : undefined,
        ),
      )
      .returning();
    if (!gone) continue;
    const named = {
      fulfillment_id: gone.id,
      provider_id: gone.provider_id,
      order_id: orderId,
      return_id: gone.return_id,
    };
    try {
      await callFulfillmentProvider(providers, gone.provider_id, 'cancelFulfillment', {
        fulfillment_id: gone.id,
        data: {},
      });
      ctx.log.info(named, 'return label whose carrier never answered canceled: no retry can take it over');
    } catch (err) {
      ctx.log.warn(
        { err, ...named },
        'return label whose carrier never answered dropped, not canceled: the carrier may hold a label under its id',
      );
    }
  }
}
