import type { Ctx, TxCtx } from '../../platform/context.ts';
import { emit } from '../../platform/events/emit.ts';
import { errors } from '../../platform/http/errors.ts';
import * as ledger from '../payments/ledger.ts';
import type { AdminPaymentView } from '../payments/ledger-schema.ts';
import { onLockedOrder, orderCanceled, settle } from './desk.ts';
import type { AdminOrderView } from './desk-schema.ts';
import { orderDetail } from './desk-view.ts';
import type { OrderRow } from './queries.ts';

/** Capture and refund, per order (the spec) or per payment (Medusa); both lock the order first. */

/**
 * New statuses, and order.paid when the order becomes fully captured. A capture that succeeded
 * took a payment that was not full, so "full now" means "became full"; sums rather than
 * payment_status, which says partially_refunded once anything was refunded.
 */
async function afterCapture(tctx: TxCtx, before: OrderRow): Promise<AdminOrderView> {
  const view = await orderDetail(tctx.tx, await settle(tctx, before, { paymentsMoved: true }));
  const live = view.payment_collections.flatMap((pc) => pc.payments).filter((p) => !p.canceled_at);
  if (live.every((p) => p.captured_amount >= p.amount)) await emit(tctx, 'order.paid', view);
  return view;
}

async function afterRefund(tctx: TxCtx, before: OrderRow): Promise<AdminOrderView> {
  const view = await orderDetail(tctx.tx, await settle(tctx, before, { paymentsMoved: true }));
  await emit(tctx, 'order.refunded', view);
  return view;
}

/** `POST /admin/orders/{id}/capture`: captures what is left of every authorized payment. */
export function captureOrder(ctx: Ctx, orderId: string): Promise<AdminOrderView> {
  return onLockedOrder(ctx, orderId, async (tctx, order) => {
    if (order.status === 'canceled') throw orderCanceled(order.id);
    const open = (await ledger.lockOrderPayments(tctx, order.id)).filter((p) => ledger.capturable(p) > 0);
    if (!open.length) throw errors.notAllowed(`Order ${order.id} has no authorized amount left to capture`);
    for (const p of open) await ledger.capture(tctx, p);
    return afterCapture(tctx, order);
  });
}

/** Finds the payment, then locks its order and the payment with it. */
async function onLockedPayment<T>(ctx: Ctx, paymentId: string, fn: (tctx: TxCtx, order: OrderRow, p: ledger.PaymentRow) => Promise<T>): Promise<T> {
  const found = await ledger.findPayment(ctx, paymentId);
  if (!found) throw ledger.paymentNotFound(paymentId);
  return onLockedOrder(ctx, found.order_id, async (tctx, order) => {
    const p = (await ledger.lockOrderPayments(tctx, order.id)).find((x) => x.id === paymentId)!;
    return fn(tctx, order, p);
  });
}

/** `POST /admin/payments/{id}/capture { amount? }`. */
export function capturePayment(ctx: Ctx, paymentId: string, amount?: number): Promise<AdminPaymentView> {
  return onLockedPayment(ctx, paymentId, async (tctx, order, p) => {
    if (order.status === 'canceled') throw orderCanceled(order.id);
    const captured = await ledger.capture(tctx, p, amount);
    await afterCapture(tctx, order);
    return (await ledger.paymentViews(tctx.tx, [captured]))[0];
  });
}

/** `POST /admin/payments/{id}/refund { amount?, reason?, note?, refund_reason_id? }`. */
export function refundPayment(ctx: Ctx, paymentId: string, input: ledger.RefundInput): Promise<AdminPaymentView> {
  return onLockedPayment(ctx, paymentId, async (tctx, order, p) => {
    const refunded = await ledger.refund(tctx, p, input);
    await afterRefund(tctx, order);
    return (await ledger.paymentViews(tctx.tx, [refunded]))[0];
  });
}

/**
 * `POST /admin/orders/{id}/refunds { amount, reason?, note? }`: taken from the captured payments
 * in the order they were made; refused whole when they do not cover the amount.
 */
export function refundOrder(ctx: Ctx, orderId: string, input: { amount: number; reason?: string; note?: string }): Promise<AdminOrderView> {
  return onLockedOrder(ctx, orderId, async (tctx, order) => {
    const payments = await ledger.lockOrderPayments(tctx, order.id);
    if (payments.every((p) => p.captured_amount === 0)) {
      throw errors.notAllowed(`Order ${order.id} has no captured payment: capture it before refunding`);
    }
    const available = payments.reduce((s, p) => s + ledger.refundable(p), 0);
    if (input.amount > available) throw errors.notAllowed('You are not allowed to refund more than the captured amount');
    let left = input.amount;
    for (const p of payments) {
      const part = Math.min(left, ledger.refundable(p));
      if (part <= 0) continue;
      await ledger.refund(tctx, p, { ...input, amount: part });
      left -= part;
    }
    return afterRefund(tctx, order);
  });
}
