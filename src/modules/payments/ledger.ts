import { executor, type Ctx, type TxCtx } from '../../platform/context.ts';
import type { Executor } from '../../platform/db/database.ts';
import { errors } from '../../platform/http/errors.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { newId } from '../../platform/ids.ts';
import * as lq from './ledger-queries.ts';
import type { AdminPaymentCollectionView, AdminPaymentView, PaymentFilters } from './ledger-schema.ts';
import { findCollectionsByIds, listOrderPayments, listSessions, type PaymentRow } from './queries.ts';
import type { OrderPaymentCollectionView } from './schema.ts';
import type { PaymentStatus } from './tables.ts';

/**
 * The payment ledger: captures and refunds of one payment, with the rules on amounts.
 * It knows nothing of orders; the order desk locks the order first and calls in here.
 * Amounts are integers in the currency's minor unit.
 */
export type { PaymentRow };

export const paymentNotFound = (id: string) => errors.notFound('payment_not_found', { id });

/** Medusa's payment status from the running sums. */
export function paymentStatus(
  p: Pick<PaymentRow, 'amount' | 'captured_amount' | 'refunded_amount' | 'canceled_at'>,
): PaymentStatus {
  if (p.refunded_amount > 0) return p.refunded_amount >= p.captured_amount ? 'refunded' : 'partially_refunded';
  if (p.canceled_at) return 'canceled';
  if (p.captured_amount > 0) return p.captured_amount >= p.amount ? 'captured' : 'partially_captured';
  return 'authorized';
}

export const capturable = (p: PaymentRow) => (p.canceled_at ? 0 : p.amount - p.captured_amount);
export const refundable = (p: PaymentRow) => p.captured_amount - p.refunded_amount;

async function save(tctx: TxCtx, p: PaymentRow, patch: Partial<PaymentRow>): Promise<PaymentRow> {
  const next = { ...p, ...patch, updated_at: tctx.clock.now() };
  return lq.updatePaymentRow(tctx.tx, p.id, { ...patch, status: paymentStatus(next), updated_at: next.updated_at });
}

/** Captures `amount` (default: the rest of what is authorized). The caller holds the order lock. */
export async function capture(tctx: TxCtx, p: PaymentRow, amount?: number): Promise<PaymentRow> {
  if (p.canceled_at) throw errors.notAllowed('payment_canceled', { id: p.id });
  const left = capturable(p);
  if (amount === undefined && left === 0) throw errors.notAllowed('payment_fully_captured', { id: p.id });
  const value = amount ?? left;
  if (value > left) throw errors.notAllowed('capture_exceeds_authorized');
  const now = tctx.clock.now();
  await lq.insertCapture(tctx.tx, {
    id: newId('capt'),
    payment_id: p.id,
    amount: value,
    created_by: tctx.actor?.id ?? null,
    created_at: now,
  });
  const captured = p.captured_amount + value;
  // Medusa sets captured_at once the whole authorized amount is in.
  return save(tctx, p, { captured_amount: captured, captured_at: captured >= p.amount ? now : p.captured_at });
}

export interface RefundInput {
  amount?: number;
  reason?: string | null;
  note?: string | null;
  refund_reason_id?: string | null;
}

/** Refunds `amount` (default: all captured and not yet refunded). The caller holds the order lock. */
export async function refund(tctx: TxCtx, p: PaymentRow, input: RefundInput): Promise<PaymentRow> {
  if (p.captured_amount === 0) throw errors.notAllowed('payment_not_captured', { id: p.id });
  const left = refundable(p);
  const value = input.amount ?? left;
  if (value > left || value <= 0) throw errors.notAllowed('refund_exceeds_captured');
  await lq.insertRefund(tctx.tx, {
    id: newId('ref'),
    payment_id: p.id,
    order_id: p.order_id,
    amount: value,
    reason: input.reason ?? null,
    note: input.note ?? null,
    refund_reason_id: input.refund_reason_id ?? null,
    created_by: tctx.actor?.id ?? null,
    created_at: tctx.clock.now(),
  });
  return save(tctx, p, { refunded_amount: p.refunded_amount + value });
}

/**
 * Order cancellation: what was captured and not refunded is refunded, the uncaptured rest of the
 * authorization is released. Returns the payment and whether money went back.
 */
export async function release(
  tctx: TxCtx,
  p: PaymentRow,
  note: string,
): Promise<{ payment: PaymentRow; refunded: boolean }> {
  let current = p;
  const refunded = refundable(p) > 0;
  if (refunded) current = await refund(tctx, p, { note });
  if (current.canceled_at) return { payment: current, refunded };
  return { payment: await save(tctx, current, { canceled_at: tctx.clock.now() }), refunded };
}

/** Medusa's collection status from its payments (written back so every reader sees it). */
export async function syncCollection(tctx: TxCtx, collectionId: string | null, all: PaymentRow[]): Promise<void> {
  if (!collectionId) return;
  const mine = all.filter((p) => p.payment_collection_id === collectionId);
  const statuses = new Set(mine.map(paymentStatus));
  const status =
    statuses.has('refunded') && statuses.size === 1
      ? 'refunded'
      : statuses.has('refunded') || statuses.has('partially_refunded')
        ? 'partially_refunded'
        : [...statuses].every((s) => s === 'canceled')
          ? 'canceled'
          : [...statuses].every((s) => s === 'captured' || s === 'canceled')
            ? 'completed'
            : statuses.has('captured') || statuses.has('partially_captured')
              ? 'partially_captured'
              : 'authorized';
  await lq.setCollectionStatus(tctx.tx, collectionId, status, tctx.clock.now());
}

export const lockOrderPayments = (tctx: TxCtx, orderId: string) => lq.lockOrderPaymentRows(tctx.tx, orderId);
export const findPayment = (ctx: Ctx, id: string) => lq.findPaymentRow(executor(ctx), id);

/** Payments with their captures and refunds, in three queries whatever their number. */
export async function paymentViews(db: Executor, rows: PaymentRow[]): Promise<AdminPaymentView[]> {
  const ids = rows.map((p) => p.id);
  const [captures, refunds] = [await lq.listCapturesOf(db, ids), await lq.listRefundsOf(db, ids)];
  return rows.map((p) => ({
    ...p,
    data: p.data ?? {},
    captures: captures.filter((c) => c.payment_id === p.id),
    refunds: refunds.filter((r) => r.payment_id === p.id),
  }));
}

/**
 * Per order id, its payment collections with sessions and payments (captures, refunds): six
 * queries for any number of orders. `moneyMoves: false` (the store's order, whose payments show
 * no captures or refunds) leaves those two out: their lists are empty, four queries.
 */
export async function paymentCollectionsOfOrders(
  db: Executor,
  orderIds: string[],
  opts: { moneyMoves?: boolean } = {},
): Promise<Map<string, AdminPaymentCollectionView[]>> {
  const rows = await lq.listPaymentsOfOrders(db, orderIds);
  const payments =
    opts.moneyMoves === false
      ? rows.map((p) => ({ ...p, data: p.data ?? {}, captures: [], refunds: [] }))
      : await paymentViews(db, rows);
  const byId = new Map(
    (
      await findCollectionsByIds(db, [
        ...new Set(payments.map((p) => p.payment_collection_id).filter((id): id is string => !!id)),
      ])
    ).map((c) => [c.id, c]),
  );
  // An order's difference collections, paid or not (one not paid yet has no payment).
  for (const c of await lq.listCollectionsOfOrders(db, orderIds)) byId.set(c.id, c);
  const collections = [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : 1));
  const sessions = await lq.listSessionsOf(
    db,
    collections.map((c) => c.id),
  );
  const byOrder = new Map<string, AdminPaymentCollectionView[]>(orderIds.map((id) => [id, []]));
  for (const c of collections) {
    const mine = payments.filter((p) => p.payment_collection_id === c.id);
    const own = sessions.filter((s) => s.payment_collection_id === c.id);
    byOrder.get(c.order_id ?? mine[0].order_id)?.push({ ...c, payment_sessions: own, payments: mine });
  }
  return byOrder;
}

export async function listPayments(ctx: Ctx, filters: PaymentFilters, page: Page) {
  const rows = await lq.listPaymentRows(ctx.db, filters, page);
  return { payments: await paymentViews(ctx.db, rows), count: await lq.countPaymentRows(ctx.db, filters) };
}

export async function getPayment(ctx: Ctx, id: string): Promise<AdminPaymentView> {
  const row = await lq.findPaymentRow(executor(ctx), id);
  if (!row) throw paymentNotFound(id);
  return (await paymentViews(executor(ctx), [row]))[0];
}

export const orderPayments = (db: Executor, orderId: string) => lq.listPaymentsOfOrders(db, [orderId]);

/** An order's payments grouped under their collections (Medusa's `order.payment_collections[].payments`). */
export async function orderPaymentCollections(db: Executor, orderId: string): Promise<OrderPaymentCollectionView[]> {
  const payments = await listOrderPayments(db, orderId);
  const collections = await findCollectionsByIds(db, [
    ...new Set(payments.map((p) => p.payment_collection_id).filter((id): id is string => !!id)),
  ]);
  const result: OrderPaymentCollectionView[] = [];
  for (const c of collections) {
    result.push({
      ...c,
      payment_sessions: await listSessions(db, c.id),
      payments: payments.filter((p) => p.payment_collection_id === c.id),
    });
  }
  return result;
}
