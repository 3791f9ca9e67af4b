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

// What checkout's writes RETURN: a view's columns, named (a column added later must not reach
// the view or the event payload unseen).
const COLLECTION = 'id, cart_id, order_id, currency_code, amount, status, created_at, updated_at';
const SESSION = 'id, payment_collection_id, provider_id, currency_code, amount, status, data, created_at, updated_at';
const PAYMENT =
  'id, order_id, payment_collection_id, payment_session_id, provider_id, amount, currency_code, status, ' +
  'captured_amount, refunded_amount, captured_at, canceled_at, data, created_at, updated_at';
const returning = (columns: string) => sql.raw(` returning ${columns}`);

/** Checkout: the cart's collection authorized for the final amount, as one write. */
export function authorizeCollection(id: string, amount: number, now: Date): SQL {
  return sql`update payment_collections set status = 'authorized', amount = ${amount}, updated_at = ${now.toISOString()}::timestamptz
    where id = ${id}${returning(COLLECTION)}`;
}

/** The short checkout (no collection yet): a collection made authorized for the order total, as one write. */
export function authorizedCollectionInsert(c: {
  id: string;
  /** A checkout's cart, or null for an order's own collection (a converted draft paid by the desk). */
  cartId: string | null;
  orderId?: string;
  currency: string;
  amount: number;
  now: Date;
}): SQL {
  const now = c.now.toISOString();
  return sql`insert into payment_collections (id, cart_id, order_id, currency_code, amount, status, created_at, updated_at)
    values (${c.id}, ${c.cartId}, ${c.orderId ?? null}, ${c.currency}, ${c.amount}, 'authorized', ${now}::timestamptz, ${now}::timestamptz)${returning(COLLECTION)}`;
}

/** The chosen session authorized for the final amount (with what its provider answered, when given), as one write. */
export function authorizeSession(id: string, amount: number, now: Date, data?: Record<string, unknown>): SQL {
  const setData = data === undefined ? sql`` : sql`, data = ${JSON.stringify(data)}::jsonb`;
  return sql`update payment_sessions set status = 'authorized', amount = ${amount}, updated_at = ${now.toISOString()}::timestamptz${setData}
    where id = ${id}${returning(SESSION)}`;
}

/** Checkout: every session of the collection but the chosen one canceled, as one write. */
export function cancelOtherSessions(collectionId: string, chosenId: string, now: Date): SQL {
  return sql`update payment_sessions set status = 'canceled', updated_at = ${now.toISOString()}::timestamptz
    where payment_collection_id = ${collectionId} and id <> ${chosenId}${returning(SESSION)}`;
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
      'authorized', ${JSON.stringify(p.data)}::jsonb, ${now}::timestamptz, ${now}::timestamptz)${returning(PAYMENT)}`;
}

/** A new session of a collection, as one write. */
export function sessionInsert(row: SessionRow): SQL {
  return sql`insert into payment_sessions (id, payment_collection_id, provider_id, currency_code, amount, status, data, created_at, updated_at)
    values (${row.id}, ${row.payment_collection_id}, ${row.provider_id}, ${row.currency_code}, ${row.amount}, ${row.status},
      ${JSON.stringify(row.data)}::jsonb, ${row.created_at.toISOString()}::timestamptz, ${row.updated_at.toISOString()}::timestamptz)${returning(SESSION)}`;
}

/** A timestamp in JSON as JSON.stringify writes a Date, so the event payload reads as a view built in JS would. */
const iso = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const rowJson = (alias: string, stamps: string[]) =>
  `(to_jsonb(${alias}) || jsonb_build_object(${stamps.map((c) => `'${c}', ${iso(`${alias}.${c}`)}`).join(', ')}))`;
const STAMPS = ['created_at', 'updated_at'];

/**
 * The order's payment collection (`OrderPaymentCollectionView`) as jsonb, read from what the
 * named parts of checkout's statement RETURN (their references, from NamedWrites): the
 * collection, its sessions (in id order, as the cart read them) and the payment.
 */
export function orderCollectionJson(parts: { collection: SQL; sessions: SQL[]; payment: SQL }): SQL {
  const sessions = sql.join(
    parts.sessions.map((part) => sql`select * from ${part}`),
    sql` union all `,
  );
  return sql`(select ${sql.raw(rowJson('c', STAMPS))} || jsonb_build_object(
      'payment_sessions', (select jsonb_agg(${sql.raw(rowJson('s', STAMPS))} order by s.id) from (${sessions}) s),
      'payments', (select jsonb_agg(${sql.raw(rowJson('p', [...STAMPS, 'captured_at', 'canceled_at']))}) from ${parts.payment} p))
    from ${parts.collection} c)`;
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

/** An order's collections of differences after the sale, oldest first. */
export async function listOrderCollections(db: Executor, orderId: string): Promise<CollectionRow[]> {
  return db
    .select()
    .from(paymentCollections)
    .where(eq(paymentCollections.order_id, orderId))
    .orderBy(asc(paymentCollections.id))
    .for('update');
}

export async function insertPaymentRow(db: Executor, row: PaymentRow): Promise<void> {
  await db.insert(payments).values(row);
}
