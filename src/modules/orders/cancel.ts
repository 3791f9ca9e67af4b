import type { Ctx } from '../../platform/context.ts';
import { emit } from '../../platform/events/emit.ts';
import { errors } from '../../platform/http/errors.ts';
import * as ledger from '../payments/ledger.ts';
import * as dq from './desk-queries.ts';
import { onLockedOrder, orderCanceled, settle } from './desk.ts';
import type { AdminOrderView } from './desk-schema.ts';
import { orderDetail } from './desk-view.ts';

/**
 * `POST /admin/orders/{id}/cancel`. Refused after any fulfillment that is not canceled, and
 * twice. Otherwise, in one transaction: the stock checkout took goes back, captured money is
 * refunded (recorded as refunds), the rest of each authorization is released, the order is
 * canceled; events order.refunded (when money went back) and order.cancelled.
 */
export function cancelOrder(ctx: Ctx, orderId: string): Promise<AdminOrderView> {
  return onLockedOrder(ctx, orderId, async (tctx, order) => {
    if (order.status === 'canceled') throw orderCanceled(order.id);
    const fulfillments = await dq.listFulfillmentsOf(tctx.tx, [order.id]);
    if (fulfillments.some((f) => !f.canceled_at)) throw errors.notAllowed('All fulfillments must be canceled before canceling an order');
    const now = tctx.clock.now();

    // Per variant, in id order: the same lock order as checkout's stock updates, so no deadlock.
    const lines = await dq.listLinesOf(tctx.tx, [order.id]);
    const back = new Map<string, number>();
    for (const l of lines.filter((x) => x.reserved_quantity > 0)) {
      back.set(l.variant_id, (back.get(l.variant_id) ?? 0) + l.reserved_quantity);
      await dq.updateLineRow(tctx.tx, l.id, { reserved_quantity: 0, updated_at: now });
    }
    for (const variantId of [...back.keys()].sort()) await dq.restock(tctx.tx, variantId, back.get(variantId)!, now);

    let refunded = false;
    for (const p of await ledger.lockOrderPayments(tctx, order.id)) {
      refunded = (await ledger.release(tctx, p, 'Order canceled')).refunded || refunded;
    }
    const canceled = await settle(tctx, order, { paymentsMoved: true, patch: { status: 'canceled', canceled_at: now } });
    const view = await orderDetail(tctx.tx, canceled);
    if (refunded) await emit(tctx, 'order.refunded', view);
    await emit(tctx, 'order.cancelled', view);
    return view;
  });
}
