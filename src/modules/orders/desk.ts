import { inTx, type Ctx, type TxCtx } from '../../platform/context.ts';
import { errors } from '../../platform/http/errors.ts';
import { orderPayments, syncCollection } from '../payments/ledger.ts';
import * as dq from './desk-queries.ts';
import type { OrderRow } from './queries.ts';
import { orderFulfillmentStatus, orderPaymentStatus } from './statuses.ts';
import { dropUnretryableFulfilments } from './unanswered-fulfilments.ts';

/** What every order desk transition shares: the order lock, the refusals, the status bookkeeping. */

export const orderNotFound = (id: string) => errors.notFound('order_not_found', { id });
export const orderCanceled = (id: string) => errors.notAllowed('order_canceled', { id });
export const draftNotFound = (id: string) => errors.notFound('draft_order_not_found', { id });

/** Which orders a transition takes: placed ones (the default) or draft orders. */
export interface LockScope {
  draft?: boolean;
}

/**
 * Runs a transition in one transaction holding the order row `FOR UPDATE`: transitions of one
 * order run one after another, each sees the previous one's result, and a refusal (thrown)
 * rolls back everything it did.
 */
export function onLockedOrder<T>(
  ctx: Ctx,
  orderId: string,
  fn: (tctx: TxCtx, order: OrderRow) => Promise<T>,
  scope: LockScope = {},
): Promise<T> {
  return inTx(ctx, async (tctx) => {
    const order = await dq.lockOrderRow(tctx.tx, orderId);
    // A draft is not an order yet (nothing to capture, fulfil or return), and the draft desk
    // touches nothing else: each side sees the other's rows as missing.
    if (scope.draft) {
      if (!order?.is_draft_order) throw draftNotFound(orderId);
    } else if (!order || order.is_draft_order) throw orderNotFound(orderId);
    return fn(tctx, order);
  });
}

/**
 * Derives payment_status and fulfillment_status from what the transition wrote (and, when
 * payments moved, the collections' statuses), then stores them with `patch`; fulfilments whose
 * carrier never answered and that no retry can take over any more are dropped.
 */
export async function settle(
  tctx: TxCtx,
  order: OrderRow,
  opts: { paymentsMoved?: boolean; patch?: Pick<Partial<OrderRow>, 'status' | 'canceled_at'> } = {},
): Promise<OrderRow> {
  const lines = await dq.listLinesOf(tctx.tx, [order.id]);
  // One read of the order's fulfilments: the made ones set its status, the others may be dropped.
  const every = await dq.listEveryFulfillmentOf(tctx.tx, order.id);
  const fulfillments = every.filter(dq.isMade);
  const payments = await orderPayments(tctx.tx, order.id);
  if (opts.paymentsMoved) {
    for (const id of new Set(payments.map((p) => p.payment_collection_id))) await syncCollection(tctx, id, payments);
  }
  const status = opts.patch?.status ?? order.status;
  const pending = every.filter((f) => !dq.isMade(f));
  await dropUnretryableFulfilments(tctx, order, lines, pending, status === 'canceled');
  return dq.updateOrderRow(tctx.tx, order.id, {
    ...opts.patch,
    payment_status: orderPaymentStatus(payments),
    // A canceled order has nothing left to fulfil.
    fulfillment_status: status === 'canceled' ? 'canceled' : orderFulfillmentStatus(lines, fulfillments),
    updated_at: tctx.clock.now(),
  });
}
