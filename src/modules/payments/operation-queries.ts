import { and, asc, eq } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.ts';
import { paymentOperations, paymentWebhookEvents } from './provider-tables.ts';
import { payments } from './tables.ts';

export type OperationRow = typeof paymentOperations.$inferSelect;
export type WebhookEventRow = typeof paymentWebhookEvents.$inferSelect;

export async function insertOperation(db: Executor, row: OperationRow): Promise<void> {
  await db.insert(paymentOperations).values(row);
}

/** A payment's operations of one kind still waiting for the provider's answer, oldest first. */
export async function listPendingOperations(
  db: Executor,
  paymentId: string,
  kind: OperationRow['kind'],
): Promise<OperationRow[]> {
  return db
    .select()
    .from(paymentOperations)
    .where(
      and(
        eq(paymentOperations.payment_id, paymentId),
        eq(paymentOperations.kind, kind),
        eq(paymentOperations.status, 'pending'),
      ),
    )
    .orderBy(asc(paymentOperations.id));
}

export async function findOperation(db: Executor, id: string): Promise<OperationRow | undefined> {
  const [row] = await db.select().from(paymentOperations).where(eq(paymentOperations.id, id));
  return row;
}

/** Settles a pending operation; false when it was no longer pending (a webhook settled it first). */
export async function settleOperation(
  db: Executor,
  id: string,
  patch: { status: 'succeeded' | 'failed'; error: string | null; updated_at: Date },
): Promise<boolean> {
  const done = await db
    .update(paymentOperations)
    .set(patch)
    .where(and(eq(paymentOperations.id, id), eq(paymentOperations.status, 'pending')))
    .returning({ id: paymentOperations.id });
  return done.length > 0;
}

export async function findWebhookEvent(
  db: Executor,
  providerId: string,
  eventId: string,
): Promise<WebhookEventRow | undefined> {
  const [row] = await db
    .select()
    .from(paymentWebhookEvents)
    .where(and(eq(paymentWebhookEvents.provider_id, providerId), eq(paymentWebhookEvents.event_id, eventId)));
  return row;
}

export async function insertWebhookEvent(db: Executor, row: WebhookEventRow): Promise<void> {
  await db.insert(paymentWebhookEvents).values(row).onConflictDoNothing();
}

/** The payment made from a session (the webhook path: processors know the shop's session id). */
export async function findPaymentIdBySession(db: Executor, sessionId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ id: payments.id })
    .from(payments)
    .where(eq(payments.payment_session_id, sessionId))
    .limit(1);
  return row?.id;
}
