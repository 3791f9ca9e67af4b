import { createHash } from 'node:crypto';
import { and, eq, lt, or } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.ts';
import { errors } from '../../platform/http/errors.ts';
import { newId } from '../../platform/ids.ts';
import { returnLabelAttempts } from './tables.ts';

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
  at: { order_id: string; provider_id: string; question: string },
  now: Date,
  lostAfterMs: number,
): Promise<string> {
  const question = questionDigest(at.question);
  const [fresh] = await db
    .insert(returnLabelAttempts)
    .values({
      id: newId('ful'),
      order_id: at.order_id,
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
    .set({ state: 'calling', updated_at: now })
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
