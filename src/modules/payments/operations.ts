import { executor, type Ctx, type TxCtx } from '../../platform/context.ts';
import { errors } from '../../platform/http/errors.ts';
import { newId } from '../../platform/ids.ts';
import { capturable, refundable, type PaymentRow } from './ledger.ts';
import * as oq from './operation-queries.ts';

export type { OperationRow } from './operation-queries.ts';

/**
 * Captures and refunds asked of a plugin's provider, as a ledger of pending operations: reserved
 * under the order lock before the provider is called, settled after it answered (or when its
 * webhook reports the money moved). The order desk drives these; this file only keeps the rules.
 */

/**
 * Reserves `amount` (default: all that is left) of a payment for a capture or a refund. A pending
 * operation of the same kind is the same request repeated after a timeout: it is answered again
 * (same id, so the provider sees the same idempotency key); one of another amount is a 409.
 */
export async function reserveOperation(
  tctx: TxCtx,
  p: PaymentRow,
  kind: oq.OperationRow['kind'],
  amount: number | undefined,
  input: Record<string, string | null> = {},
): Promise<oq.OperationRow> {
  const pending = await oq.listPendingOperations(tctx.tx, p.id, kind);
  if (pending.length) {
    const same = pending.find((o) => amount === undefined || o.amount === amount);
    if (same) return same;
    throw errors.conflict('payment_operation_pending', { kind, amount: pending[0].amount, provider: p.provider_id });
  }
  if (kind === 'capture') {
    if (p.canceled_at) throw errors.notAllowed('payment_canceled', { id: p.id });
    const left = capturable(p);
    if (amount === undefined && left === 0) throw errors.notAllowed('payment_fully_captured', { id: p.id });
    if ((amount ?? left) > left) throw errors.notAllowed('capture_exceeds_authorized');
  } else {
    if (p.captured_amount === 0) throw errors.notAllowed('payment_not_captured', { id: p.id });
    const left = refundable(p);
    if ((amount ?? left) > left || (amount ?? left) <= 0) throw errors.notAllowed('refund_exceeds_captured');
  }
  const now = tctx.clock.now();
  const row: oq.OperationRow = {
    id: newId('payop'),
    payment_id: p.id,
    order_id: p.order_id,
    kind,
    amount: amount ?? (kind === 'capture' ? capturable(p) : refundable(p)),
    status: 'pending',
    input,
    error: null,
    created_by: tctx.actor?.id ?? null,
    created_at: now,
    updated_at: now,
  };
  await oq.insertOperation(tctx.tx, row);
  return row;
}

/** Marks an operation settled; false when something else (a webhook) settled it first. */
export function settleOperation(tctx: TxCtx, id: string, status: 'succeeded' | 'failed', error: string | null = null) {
  return oq.settleOperation(tctx.tx, id, { status, error, updated_at: tctx.clock.now() });
}

export const pendingOperations = (tctx: TxCtx, paymentId: string, kind: oq.OperationRow['kind']) =>
  oq.listPendingOperations(tctx.tx, paymentId, kind);

export const findOperation = (ctx: Ctx, id: string) => oq.findOperation(executor(ctx), id);
export const findPaymentIdBySession = (ctx: Ctx, sessionId: string) =>
  oq.findPaymentIdBySession(executor(ctx), sessionId);
export const findWebhookEvent = (ctx: Ctx, providerId: string, eventId: string) =>
  oq.findWebhookEvent(executor(ctx), providerId, eventId);
export const recordWebhookEvent = (ctx: Ctx, row: oq.WebhookEventRow) => oq.insertWebhookEvent(executor(ctx), row);
