import type { Ctx, TxCtx } from '../../platform/context.ts';
import { emit } from '../../platform/events/emit.ts';
import { errors } from '../../platform/http/errors.ts';
import type { Providers } from '../../platform/providers.ts';
import { releaseLines } from '../inventory/order-stock.ts';
import * as ledger from '../payments/ledger.ts';
import * as ops from '../payments/operations.ts';
import { SYSTEM_PROVIDER } from '../payments/schema.ts';
import { afterRefund, lockOf } from './payment-actions.ts';
import { moveProviderMoney, releaseWithProvider } from './provider-payments.ts';
import * as dq from './desk-queries.ts';
import { onLockedOrder, orderCanceled, settle } from './desk.ts';
import type { AdminOrderView } from './desk-schema.ts';
import { orderDetail } from './desk-view.ts';
import type { OrderRow } from './queries.ts';

/**
 * `POST /admin/orders/{id}/cancel`. Refused after any fulfillment that is not canceled, and
 * twice. Otherwise, in one transaction: the stock checkout reserved is released, captured money is
 * refunded (recorded as refunds), the rest of each authorization is released, the order is
 * canceled; events order.refunded (when money went back) and order.cancelled. Payments of a
 * plugin's provider are refunded and released with the provider first, each recorded as it is
 * confirmed; a provider that refuses stops the cancellation there (the order stays pending).
 *
 * Those provider calls run with no lock held, so a capture can land meanwhile, and a provider's
 * release says nothing about it (Stripe answers yes for an intent captured since). The last
 * transaction therefore records no money of a plugin's payment: it only marks it canceled, and
 * answers 409 with nothing written when that payment has money the provider was not asked to
 * refund, or an operation still waiting for its answer. A capture already waiting is a 409 before
 * any provider call: its outcome decides what there is to refund.
 */
export async function cancelOrder(ctx: Ctx, orderId: string, providers: Providers): Promise<AdminOrderView> {
  const viaPlugin = await onLockedOrder(ctx, orderId, async (tctx, order) => {
    await refuseCancel(tctx, order);
    const mine = (await ledger.lockOrderPayments(tctx, order.id)).filter((p) => p.provider_id !== SYSTEM_PROVIDER);
    for (const p of mine) {
      const [waiting] = await ops.pendingOperations(tctx, p.id, 'capture');
      if (waiting) throw errors.conflict('order_capture_waiting', { amount: waiting.amount, provider: p.provider_id });
    }
    return mine;
  });
  for (const p of viaPlugin) {
    if (ledger.refundable(p) > 0)
      await moveProviderMoney(
        ctx,
        providers,
        lockOf(ctx, p.id),
        p,
        'refund',
        ledger.refundable(p),
        { note: 'Order canceled' },
        afterRefund,
      );
    if (ledger.capturable(p) > 0) await releaseWithProvider(ctx, providers, p);
  }
  return onLockedOrder(ctx, orderId, async (tctx, order) => {
    await refuseCancel(tctx, order);
    const payments = await ledger.lockOrderPayments(tctx, order.id);
    for (const p of payments.filter((x) => x.provider_id !== SYSTEM_PROVIDER)) await refuseChanged(tctx, p);
    const now = tctx.clock.now();

    // The lines' reservations are released (variants locked first, in id order, as checkout
    // locks them, so no deadlock). Lines of orders placed before checkout reserved hold none:
    // their stock left the shelf at placement and goes back through the variant's number.
    const held = (await dq.listLinesOf(tctx.tx, [order.id])).filter((x) => x.reserved_quantity > 0);
    const taken = await releaseLines(tctx.tx, held, now);
    const back = new Map<string, number>();
    for (const l of taken)
      if (l.variant_id) back.set(l.variant_id, (back.get(l.variant_id) ?? 0) + l.reserved_quantity);
    for (const l of held) await dq.updateLineRow(tctx.tx, l.id, { reserved_quantity: 0, updated_at: now });
    for (const variantId of [...back.keys()].sort()) await dq.restock(tctx.tx, variantId, back.get(variantId)!, now);

    let refunded = false;
    for (const p of payments) {
      refunded = (await ledger.release(tctx, p, 'Order canceled')).refunded || refunded;
    }
    const canceled = await settle(tctx, order, {
      paymentsMoved: true,
      patch: { status: 'canceled', canceled_at: now },
    });
    const view = await orderDetail(tctx.tx, canceled);
    if (refunded) await emit(tctx, 'order.refunded', view);
    await emit(tctx, 'order.cancelled', view);
    return view;
  });
}

/**
 * A plugin's payment whose money moved since the provider calls above: recording its release would
 * claim a refund the provider never made. The operator sends the cancellation again.
 */
async function refuseChanged(tctx: TxCtx, p: ledger.PaymentRow): Promise<void> {
  const waiting = [
    ...(await ops.pendingOperations(tctx, p.id, 'capture')),
    ...(await ops.pendingOperations(tctx, p.id, 'refund')),
  ];
  if (ledger.refundable(p) > 0 || waiting.length) throw errors.conflict('order_cancel_raced');
}

async function refuseCancel(tctx: TxCtx, order: OrderRow): Promise<void> {
  if (order.status === 'canceled') throw orderCanceled(order.id);
  const fulfillments = await dq.listFulfillmentsOf(tctx.tx, [order.id]);
  if (fulfillments.some((f) => !f.canceled_at)) throw errors.notAllowed('order_fulfillments_not_canceled');
}
