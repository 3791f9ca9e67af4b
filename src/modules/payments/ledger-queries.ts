import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { paymentCaptures, refunds } from './ledger-tables.ts';
import type { PaymentFilters } from './ledger-schema.ts';
import { paymentCollections, payments, paymentSessions } from './tables.ts';
import type { CollectionRow, PaymentRow, SessionRow } from './queries.ts';
import { countRows } from '../../platform/db/count-rows.ts';

export type CaptureRow = typeof paymentCaptures.$inferSelect;
export type RefundRow = typeof refunds.$inferSelect;
type PaymentPatch = Partial<
  Pick<PaymentRow, 'status' | 'captured_amount' | 'refunded_amount' | 'captured_at' | 'canceled_at' | 'updated_at'>
>;

export async function findPaymentRow(db: Executor, id: string): Promise<PaymentRow | undefined> {
  const [row] = await db.select().from(payments).where(eq(payments.id, id));
  return row;
}

/** The order's payments, locked (callers already hold the order row, so this never waits long). */
export async function lockOrderPaymentRows(db: Executor, orderId: string): Promise<PaymentRow[]> {
  return db.select().from(payments).where(eq(payments.order_id, orderId)).orderBy(asc(payments.id)).for('update');
}

export async function listPaymentsOfOrders(db: Executor, orderIds: string[]): Promise<PaymentRow[]> {
  if (!orderIds.length) return [];
  return db.select().from(payments).where(inArray(payments.order_id, orderIds)).orderBy(asc(payments.id));
}

function matching(f: PaymentFilters): SQL | undefined {
  return and(
    f.id ? inArray(payments.id, f.id) : undefined,
    f.order_id ? inArray(payments.order_id, f.order_id) : undefined,
    f.payment_session_id ? inArray(payments.payment_session_id, f.payment_session_id) : undefined,
  );
}

export async function listPaymentRows(db: Executor, f: PaymentFilters, page: Page): Promise<PaymentRow[]> {
  return db.select().from(payments).where(matching(f)).orderBy(asc(payments.id)).limit(page.limit).offset(page.offset);
}

export async function countPaymentRows(db: Executor, f: PaymentFilters): Promise<number> {
  return countRows(db, payments, matching(f));
}

export async function updatePaymentRow(db: Executor, id: string, patch: PaymentPatch): Promise<PaymentRow> {
  const [row] = await db.update(payments).set(patch).where(eq(payments.id, id)).returning();
  return row;
}

export async function insertCapture(db: Executor, row: CaptureRow): Promise<void> {
  await db.insert(paymentCaptures).values(row);
}

export async function insertRefund(db: Executor, row: RefundRow): Promise<void> {
  await db.insert(refunds).values(row);
}

export async function listCapturesOf(db: Executor, paymentIds: string[]): Promise<CaptureRow[]> {
  if (!paymentIds.length) return [];
  return db
    .select()
    .from(paymentCaptures)
    .where(inArray(paymentCaptures.payment_id, paymentIds))
    .orderBy(asc(paymentCaptures.id));
}

export async function listRefundsOf(db: Executor, paymentIds: string[]): Promise<RefundRow[]> {
  if (!paymentIds.length) return [];
  return db.select().from(refunds).where(inArray(refunds.payment_id, paymentIds)).orderBy(asc(refunds.id));
}

export async function listSessionsOf(db: Executor, collectionIds: string[]): Promise<SessionRow[]> {
  if (!collectionIds.length) return [];
  return db
    .select()
    .from(paymentSessions)
    .where(inArray(paymentSessions.payment_collection_id, collectionIds))
    .orderBy(asc(paymentSessions.id));
}

/**
 * The collection follows its payments. Written as SQL because the collection's column type
 * (owned by checkout) lists only the statuses a cart reaches; after checkout Medusa's
 * collection also goes partially_captured, completed, partially_refunded, refunded.
 */
export async function setCollectionStatus(db: Executor, id: string, status: string, now: Date): Promise<void> {
  await db.execute(
    sql`update payment_collections set status = ${status}, updated_at = ${now.toISOString()}::timestamptz where id = ${id}`,
  );
}

/** Collections opened for orders' differences after the sale. */
export async function listCollectionsOfOrders(db: Executor, orderIds: string[]): Promise<CollectionRow[]> {
  if (!orderIds.length) return [];
  return db
    .select()
    .from(paymentCollections)
    .where(inArray(paymentCollections.order_id, orderIds))
    .orderBy(asc(paymentCollections.id));
}
