import type { Ctx, TxCtx } from '../../platform/context.ts';
import type { Providers } from '../../platform/providers.ts';
import { createNotification } from '../notifications/service.ts';
import * as ledger from '../payments/ledger.ts';
import * as ops from '../payments/operations.ts';
import {
  callPaymentProvider,
  isProviderTimeout,
  paymentPort,
  providerUnavailable,
} from '../payments/provider-calls.ts';
import { onLockedOrder, orderCanceled } from './desk.ts';
import type { OrderRow } from './queries.ts';
import { jsonObjectOf } from '../../platform/json.ts';

/**
 * Money of payments made through a plugin's provider. Nothing is recorded until the provider said
 * yes: the operation is reserved under the order lock, the provider is called with no transaction
 * open (its id as the idempotency key), then the answer is recorded under the lock again. A
 * refusal leaves the order as it was; no answer in time leaves the operation pending, and
 * repeating the request (or the provider's webhook) settles it.
 */

export type Lock = <T>(fn: (tctx: TxCtx, order: OrderRow, p: ledger.PaymentRow) => Promise<T>) => Promise<T>;
type After = (tctx: TxCtx, order: OrderRow) => Promise<unknown>;

/** The admin learns once per payment that its provider is gone, besides the error. */
async function assertRunning(ctx: Ctx, providers: Providers, p: ledger.PaymentRow): Promise<void> {
  if (paymentPort(providers, p.provider_id)) return;
  await createNotification(ctx, {
    type: 'payment.provider_unavailable',
    title: 'Payment provider not running',
    message: `Payment ${p.id} of order ${p.order_id} was made with ${p.provider_id}, which is not installed or not running: install or enable its plugin to capture or refund it, or settle it in the processor's dashboard.`,
    data: { payment_id: p.id, order_id: p.order_id, provider_id: p.provider_id },
    dedupeKey: `payment.provider_unavailable:${p.id}`,
  });
  throw providerUnavailable(p.provider_id);
}

/** Captures or refunds `amount` (default: the rest) of one payment through its provider. */
export async function moveProviderMoney(
  ctx: Ctx,
  providers: Providers,
  lock: Lock,
  payment: ledger.PaymentRow,
  kind: 'capture' | 'refund',
  amount: number | undefined,
  input: ledger.RefundInput,
  after: After,
): Promise<void> {
  await assertRunning(ctx, providers, payment);
  const opInput = {
    reason: input.reason ?? null,
    note: input.note ?? null,
    refund_reason_id: input.refund_reason_id ?? null,
  };
  const op = await lock((tctx, order, p) => {
    if (kind === 'capture' && order.status === 'canceled') throw orderCanceled(order.id);
    return ops.reserveOperation(tctx, p, kind, amount, opInput);
  });
  try {
    await callPaymentProvider(
      providers,
      payment.provider_id,
      kind === 'capture' ? 'capturePayment' : 'refundPayment',
      {
        payment_id: payment.id,
        session_id: payment.payment_session_id,
        amount: op.amount,
        currency_code: payment.currency_code,
        data: jsonObjectOf(payment.data ?? {}),
      },
      op.id,
    );
  } catch (err) {
    if (!isProviderTimeout(err))
      await lock((tctx) => ops.settleOperation(tctx, op.id, 'failed', (err as Error).message));
    throw err;
  }
  await lock(async (tctx, order, p) => {
    if (!(await ops.settleOperation(tctx, op.id, 'succeeded'))) return; // a webhook recorded it meanwhile
    await record(tctx, p, kind, op.amount, op.input);
    await after(tctx, order);
  });
}

async function record(
  tctx: TxCtx,
  p: ledger.PaymentRow,
  kind: 'capture' | 'refund',
  amount: number,
  input: Record<string, string | null>,
): Promise<ledger.PaymentRow> {
  return kind === 'capture' ? ledger.capture(tctx, p, amount) : ledger.refund(tctx, p, { ...input, amount });
}

/**
 * A provider's webhook says `total` was captured (or refunded) in all: the ledger catches up.
 * Pending operations that fit are settled first (their answer was lost), the rest is recorded as
 * moved at the processor (its dashboard, say). A total the ledger already has changes nothing.
 */
export async function catchUpWithProvider(
  ctx: Ctx,
  paymentId: string,
  kind: 'capture' | 'refund',
  total: number,
  after: After,
): Promise<boolean> {
  const found = await ledger.findPayment(ctx, paymentId);
  if (!found) return false;
  return onLockedOrder(ctx, found.order_id, async (tctx, order) => {
    let p = (await ledger.lockOrderPayments(tctx, order.id)).find((x) => x.id === paymentId)!;
    const known = () => (kind === 'capture' ? p.captured_amount : p.refunded_amount);
    if (total <= known()) return false;
    for (const op of await ops.pendingOperations(tctx, p.id, kind)) {
      if (op.amount > total - known()) continue;
      await ops.settleOperation(tctx, op.id, 'succeeded');
      p = await record(tctx, p, kind, op.amount, op.input);
    }
    const room = kind === 'capture' ? ledger.capturable(p) : ledger.refundable(p);
    const gap = Math.min(total - known(), room);
    if (gap > 0) p = await record(tctx, p, kind, gap, { note: `Reported by ${p.provider_id}` });
    await after(tctx, order);
    return true;
  });
}

/** Releases what is left of an authorization with the provider (order canceled). Throws when refused. */
export async function releaseWithProvider(ctx: Ctx, providers: Providers, p: ledger.PaymentRow): Promise<void> {
  await assertRunning(ctx, providers, p);
  await callPaymentProvider(
    providers,
    p.provider_id,
    'cancelPayment',
    {
      session_id: p.payment_session_id ?? '',
      amount: ledger.capturable(p),
      currency_code: p.currency_code,
      data: jsonObjectOf(p.data ?? {}),
    },
    `cancel:${p.id}`,
  );
}
