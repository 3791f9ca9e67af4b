import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.ts';
import { paymentCollections, payments, paymentSessions } from './tables.ts';

export type CollectionRow = typeof paymentCollections.$inferSelect;
export type SessionRow = typeof paymentSessions.$inferSelect;
export type PaymentRow = typeof payments.$inferSelect;

export async function findCollection(db: Executor, id: string): Promise<CollectionRow | undefined> {
  const [row] = await db.select().from(paymentCollections).where(eq(paymentCollections.id, id));
  return row;
}

export async function listSessions(db: Executor, collectionId: string): Promise<SessionRow[]> {
  return db
    .select()
    .from(paymentSessions)
    .where(eq(paymentSessions.payment_collection_id, collectionId))
    .orderBy(asc(paymentSessions.id));
}

/** Inserts the cart's collection unless one exists (the unique cart_id decides a race); returns whether it inserted. */
export async function insertCollection(db: Executor, row: typeof paymentCollections.$inferInsert): Promise<boolean> {
  const inserted = await db
    .insert(paymentCollections)
    .values(row)
    .onConflictDoNothing()
    .returning({ id: paymentCollections.id });
  return inserted.length > 0;
}

export async function updateCollection(
  db: Executor,
  id: string,
  patch: Partial<Pick<CollectionRow, 'amount' | 'currency_code' | 'status' | 'updated_at'>>,
): Promise<void> {
  await db.update(paymentCollections).set(patch).where(eq(paymentCollections.id, id));
}

/** Keeps the sessions that are still pending in step with the collection's amount and currency. */
export async function updatePendingSessions(
  db: Executor,
  collectionId: string,
  patch: Pick<SessionRow, 'amount' | 'currency_code' | 'updated_at'>,
) {
  await db
    .update(paymentSessions)
    .set(patch)
    .where(and(eq(paymentSessions.payment_collection_id, collectionId), eq(paymentSessions.status, 'pending')));
}

export async function deleteSessions(db: Executor, collectionId: string): Promise<void> {
  await db.delete(paymentSessions).where(eq(paymentSessions.payment_collection_id, collectionId));
}

export async function insertSession(db: Executor, row: typeof paymentSessions.$inferInsert): Promise<void> {
  await db.insert(paymentSessions).values(row);
}

/** Checkout: the chosen session and the collection become authorized for the final amount; other sessions are canceled. */
export async function authorizeCollection(
  db: Executor,
  collectionId: string,
  sessionId: string,
  amount: number,
  now: Date,
): Promise<void> {
  await db
    .update(paymentSessions)
    .set({ status: 'authorized', amount, updated_at: now })
    .where(eq(paymentSessions.id, sessionId));
  await db
    .update(paymentSessions)
    .set({ status: 'canceled', updated_at: now })
    .where(and(eq(paymentSessions.payment_collection_id, collectionId), ne(paymentSessions.id, sessionId)));
  await db
    .update(paymentCollections)
    .set({ status: 'authorized', amount, updated_at: now })
    .where(eq(paymentCollections.id, collectionId));
}

/**
 * The short checkout (no collection yet): collection, session and payment, all authorized for
 * the order total, in one statement.
 */
export async function insertAuthorizedChain(
  db: Executor,
  ids: { collection: string; session: string; payment: string },
  v: { cartId: string; orderId: string; provider: string; amount: number; currency: string; now: Date },
): Promise<void> {
  const now = v.now.toISOString();
  await db.execute(sql`with pc as (
      insert into payment_collections (id, cart_id, currency_code, amount, status, created_at, updated_at)
      values (${ids.collection}, ${v.cartId}, ${v.currency}, ${v.amount}, 'authorized', ${now}, ${now})
    ), ps as (
      insert into payment_sessions (id, payment_collection_id, provider_id, currency_code, amount, status, data, created_at, updated_at)
      values (${ids.session}, ${ids.collection}, ${v.provider}, ${v.currency}, ${v.amount}, 'authorized', '{}'::jsonb, ${now}, ${now})
    )
    insert into payments (id, order_id, payment_collection_id, payment_session_id, provider_id, amount, currency_code, status, data, created_at, updated_at)
    values (${ids.payment}, ${v.orderId}, ${ids.collection}, ${ids.session}, ${v.provider}, ${v.amount}, ${v.currency}, 'authorized', '{}'::jsonb, ${now}, ${now})`);
}

export async function insertPayment(db: Executor, row: typeof payments.$inferInsert): Promise<PaymentRow> {
  const [created] = await db.insert(payments).values(row).returning();
  return created;
}

export async function listOrderPayments(db: Executor, orderId: string): Promise<PaymentRow[]> {
  return db.select().from(payments).where(eq(payments.order_id, orderId)).orderBy(asc(payments.id));
}

export async function findCollectionsByIds(db: Executor, ids: string[]): Promise<CollectionRow[]> {
  if (!ids.length) return [];
  return db
    .select()
    .from(paymentCollections)
    .where(inArray(paymentCollections.id, ids))
    .orderBy(asc(paymentCollections.id));
}

export async function findSession(db: Executor, id: string): Promise<SessionRow | undefined> {
  const [row] = await db.select().from(paymentSessions).where(eq(paymentSessions.id, id));
  return row;
}

export async function updateSession(
  db: Executor,
  id: string,
  patch: Partial<Pick<SessionRow, 'status' | 'data' | 'updated_at'>>,
): Promise<void> {
  await db.update(paymentSessions).set(patch).where(eq(paymentSessions.id, id));
}
