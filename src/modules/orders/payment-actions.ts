import type { Ctx, TxCtx } from '../../platform/context.ts';
import { emit } from '../../platform/events/emit.ts';
import { errors } from '../../platform/http/errors.ts';
import type { Providers } from '../../platform/providers.ts';
import * as ledger from '../payments/ledger.ts';
import type { AdminPaymentView } from '../payments/ledger-schema.ts';
import { SYSTEM_PROVIDER } from '../payments/schema.ts';
import { moveProviderMoney, type Lock } from './provider-payments.ts';
import { onLockedOrder, orderCanceled, settle } from './desk.ts';
import type { AdminOrderView } from './desk-schema.ts';
import { orderDetail } from './desk-view.ts';
import type { OrderRow } from './queries.ts';

/**
 * Capture and refund, per order (ours) or per payment (Medusa's); both lock the order first.
 * Payments of the built-in manual provider move in the ledger alone, in one transaction; those of
 * a plugin's provider go through it first (provider-payments.ts).
 */

const viaPlugin = (p: ledger.PaymentRow) => p.provider_id !== SYSTEM_PROVIDER;
/** Runs a step of a provider operation under the payment's order lock. */
export const lockOf =
  (ctx: Ctx, paymentId: string): Lock =>
  (fn) =>
    onLockedPayment(ctx, paymentId, fn);
const currentOrder = (ctx: Ctx, orderId: string) =>
  onLockedOrder(ctx, orderId, (tctx, order) => orderDetail(tctx.tx, order));

/**
 * New statuses, and order.paid when the order becomes fully captured. A capture that succeeded
 * took a payment that was not full, so "full now" means "became full"; sums rather than
 * payment_status, which says partially_refunded once anything was refunded.
 */
export async function afterCapture(tctx: TxCtx, before: OrderRow): Promise<AdminOrderView> {
  const view = await orderDetail(tctx.tx, await settle(tctx, before, { paymentsMoved: true }));
  const live = view.payment_collections.flatMap((pc) => pc.payments).filter((p) => !p.canceled_at);
  if (live.every((p) => p.captured_amount >= p.amount)) await emit(tctx, 'order.paid', view);
  return view;
}

export async function afterRefund(tctx: TxCtx, before: OrderRow): Promise<AdminOrderView> {
  const view = await orderDetail(tctx.tx, await settle(tctx, before, { paymentsMoved: true }));
  await emit(tctx, 'order.refunded', view);
  return view;
}

/** `POST /admin/orders/{id}/capture`: captures what is left of every authorized payment. */
export async function captureOrder(ctx: Ctx, orderId: string, providers: Providers): Promise<AdminOrderView> {
  const open = await onLockedOrder(ctx, orderId, async (tctx, order) => {
    if (order.status === 'canceled') throw orderCanceled(order.id);
    const open = (await ledger.lockOrderPayments(tctx, order.id)).filter((p) => ledger.capturable(p) > 0);
    if (!open.length) throw errors.notAllowed('order_nothing_to_capture', { id: order.id });
    if (open.some(viaPlugin)) return open;
    for (const p of open) await ledger.capture(tctx, p);
    return afterCapture(tctx, order);
  });
  if (!Array.isArray(open)) return open;
  for (const p of open) {
    if (viaPlugin(p))
      await moveProviderMoney(ctx, providers, lockOf(ctx, p.id), p, 'capture', undefined, {}, afterCapture);
    else
      await onLockedPayment(ctx, p.id, async (tctx, order, locked) => {
        await ledger.capture(tctx, locked);
        await afterCapture(tctx, order);
      });
  }
  return currentOrder(ctx, orderId);
}

/** Finds the payment, then locks its order and the payment with it. */
async function onLockedPayment<T>(
  ctx: Ctx,
  paymentId: string,
  fn: (tctx: TxCtx, order: OrderRow, p: ledger.PaymentRow) => Promise<T>,
): Promise<T> {
  const found = await ledger.findPayment(ctx, paymentId);
  if (!found) throw ledger.paymentNotFound(paymentId);
  return onLockedOrder(ctx, found.order_id, async (tctx, order) => {
    const p = (await ledger.lockOrderPayments(tctx, order.id)).find((x) => x.id === paymentId)!;
    return fn(tctx, order, p);
  });
}

/** `POST /admin/payments/{id}/capture { amount? }`. */
export async function capturePayment(
  ctx: Ctx,
  paymentId: string,
  amount: number | undefined,
  providers: Providers,
): Promise<AdminPaymentView> {
  const found = await ledger.findPayment(ctx, paymentId);
  if (found && viaPlugin(found)) {
    await moveProviderMoney(ctx, providers, lockOf(ctx, paymentId), found, 'capture', amount, {}, afterCapture);
    return ledger.getPayment(ctx, paymentId);
  }
  return onLockedPayment(ctx, paymentId, async (tctx, order, p) => {
    if (order.status === 'canceled') throw orderCanceled(order.id);
    const captured = await ledger.capture(tctx, p, amount);
    await afterCapture(tctx, order);
    return (await ledger.paymentViews(tctx.tx, [captured]))[0];
  });
}

/** `POST /admin/payments/{id}/refund { amount?, reason?, note?, refund_reason_id? }`. */
export async function refundPayment(
  ctx: Ctx,
  paymentId: string,
  input: ledger.RefundInput,
  providers: Providers,
): Promise<AdminPaymentView> {
  const found = await ledger.findPayment(ctx, paymentId);
  if (found && viaPlugin(found)) {
    await moveProviderMoney(ctx, providers, lockOf(ctx, paymentId), found, 'refund', input.amount, input, afterRefund);
    return ledger.getPayment(ctx, paymentId);
  }
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
export async function refundOrder(
  ctx: Ctx,
  orderId: string,
  input: { amount: number; reason?: string; note?: string },
  providers: Providers,
): Promise<AdminOrderView> {
  const parts: { p: ledger.PaymentRow; amount: number }[] = [];
  const done = await onLockedOrder(ctx, orderId, async (tctx, order) => {
    const payments = await ledger.lockOrderPayments(tctx, order.id);
    if (payments.every((p) => p.captured_amount === 0)) {
      throw errors.notAllowed('order_nothing_to_refund', { id: order.id });
    }
    const available = payments.reduce((s, p) => s + ledger.refundable(p), 0);
    if (input.amount > available) throw errors.notAllowed('refund_exceeds_captured');
    let left = input.amount;
    for (const p of payments) {
      const part = Math.min(left, ledger.refundable(p));
      if (part <= 0) continue;
      parts.push({ p, amount: part });
      left -= part;
    }
    if (parts.some(({ p }) => viaPlugin(p))) return null;
    for (const { p, amount } of parts) await ledger.refund(tctx, p, { ...input, amount });
    return afterRefund(tctx, order);
  });
  if (done) return done;
  // Through the providers, payment by payment: each refund the provider confirmed stays recorded.
  for (const { p, amount } of parts) {
    if (viaPlugin(p))
      await moveProviderMoney(ctx, providers, lockOf(ctx, p.id), p, 'refund', amount, input, afterRefund);
    else
      await onLockedPayment(ctx, p.id, async (tctx, order, locked) => {
        await ledger.refund(tctx, locked, { ...input, amount });
        await afterRefund(tctx, order);
      });
  }
  return currentOrder(ctx, orderId);
}
