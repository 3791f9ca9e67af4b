import { asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
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

export async function deleteSessions(db: Executor, collectionId: string): Promise<void> {
  await db.delete(paymentSessions).where(eq(paymentSessions.payment_collection_id, collectionId));
}

export async function insertSession(db: Executor, row: typeof paymentSessions.$inferInsert): Promise<void> {
  await db.insert(paymentSessions).values(row);
}

/**
 * Checkout: the collection becomes authorized for the final amount, and every session but the
 * chosen one is canceled. Writes for checkout's statement, each on its own rows.
 */
export function authorizeCollectionWrites(collectionId: string, chosenId: string, amount: number, now: Date): SQL[] {
  const at = now.toISOString();
  return [
    sql`update payment_sessions set status = 'canceled', updated_at = ${at}::timestamptz
      where payment_collection_id = ${collectionId} and id <> ${chosenId}`,
    sql`update payment_collections set status = 'authorized', amount = ${amount}, updated_at = ${at}::timestamptz
      where id = ${collectionId}`,
  ];
}

/** The chosen session authorized for the final amount (with what its provider answered, when given), as one write. */
export function authorizeSessionWrite(id: string, amount: number, now: Date, data?: Record<string, unknown>): SQL {
  const setData = data === undefined ? sql`` : sql`, data = ${JSON.stringify(data)}::jsonb`;
  return sql`update payment_sessions set status = 'authorized', amount = ${amount}, updated_at = ${now.toISOString()}::timestamptz${setData}
    where id = ${id}`;
}

/** The short checkout (no collection yet): collection, session and payment, all authorized for the order total. */
export function authorizedChainWrites(
  ids: { collection: string; session: string; payment: string },
  v: { cartId: string; orderId: string; provider: string; amount: number; currency: string; now: Date },
): SQL[] {
  const now = v.now.toISOString();
  return [
    sql`insert into payment_collections (id, cart_id, currency_code, amount, status, created_at, updated_at)
      values (${ids.collection}, ${v.cartId}, ${v.currency}, ${v.amount}, 'authorized', ${now}::timestamptz, ${now}::timestamptz)`,
    sessionInsert({
      id: ids.session,
      payment_collection_id: ids.collection,
      provider_id: v.provider,
      currency_code: v.currency,
      amount: v.amount,
      status: 'authorized',
      data: {},
      created_at: v.now,
      updated_at: v.now,
    }),
    paymentInsert({
      id: ids.payment,
      order_id: v.orderId,
      payment_collection_id: ids.collection,
      payment_session_id: ids.session,
      provider_id: v.provider,
      amount: v.amount,
      currency_code: v.currency,
      data: {},
      now: v.now,
    }),
  ];
}

/** An authorized payment of a new order, as one write. */
export function paymentInsert(p: {
  id: string;
  order_id: string;
  payment_collection_id: string;
  payment_session_id: string;
  provider_id: string;
  amount: number;
  currency_code: string;
  data: Record<string, unknown>;
  now: Date;
}): SQL {
  const now = p.now.toISOString();
  return sql`insert into payments (id, order_id, payment_collection_id, payment_session_id, provider_id, amount, currency_code, status, data, created_at, updated_at)
    values (${p.id}, ${p.order_id}, ${p.payment_collection_id}, ${p.payment_session_id}, ${p.provider_id}, ${p.amount}, ${p.currency_code},
      'authorized', ${JSON.stringify(p.data)}::jsonb, ${now}::timestamptz, ${now}::timestamptz)`;
}

/** A new session of a collection, as one write. */
export function sessionInsert(row: SessionRow): SQL {
  return sql`insert into payment_sessions (id, payment_collection_id, provider_id, currency_code, amount, status, data, created_at, updated_at)
    values (${row.id}, ${row.payment_collection_id}, ${row.provider_id}, ${row.currency_code}, ${row.amount}, ${row.status},
      ${JSON.stringify(row.data)}::jsonb, ${row.created_at.toISOString()}::timestamptz, ${row.updated_at.toISOString()}::timestamptz)`;
}

/** The collection and its still pending sessions moved to a new amount and currency, as writes. */
export function collectionAmountWrites(collectionId: string, amount: number, currency: string, now: Date): SQL[] {
  const at = now.toISOString();
  return [
    sql`update payment_collections set amount = ${amount}, currency_code = ${currency}, updated_at = ${at}::timestamptz
      where id = ${collectionId}`,
    sql`update payment_sessions set amount = ${amount}, currency_code = ${currency}, updated_at = ${at}::timestamptz
      where payment_collection_id = ${collectionId} and status = 'pending'`,
  ];
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
