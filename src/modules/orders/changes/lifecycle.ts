import type { Ctx } from '../../../platform/context.ts';
import { errors } from '../../../platform/http/errors.ts';
import * as dq from '../desk-queries.ts';
import { onLockedOrder } from '../desk.ts';
import type { AdminOrderView } from '../desk-schema.ts';
import { orderDetail } from '../desk-view.ts';
import * as cq from './queries.ts';

/**
 * The end of an order's life: `completed` once every unit was fulfilled and the money settled
 * (nothing owed either way), `archived` once it is completed or canceled and out of the way.
 */

export function completeOrder(ctx: Ctx, orderId: string): Promise<AdminOrderView> {
  return onLockedOrder(ctx, orderId, async (tctx, order) => {
    if (order.status === 'completed') return orderDetail(tctx.tx, order);
    if (order.status !== 'pending' && order.status !== 'requires_action')
      throw errors.notAllowed('order_not_completable', { id: order.id, status: order.status });
    if (await cq.openChangeOf(tctx.tx, order.id)) throw errors.notAllowed('order_has_active_change', { id: order.id });
    const lines = await dq.listLinesOf(tctx.tx, [order.id]);
    if (lines.some((l) => l.fulfilled_quantity < l.quantity))
      throw errors.notAllowed('order_items_not_fulfilled', { id: order.id });
    const view = await orderDetail(tctx.tx, order);
    if (view.summary.pending_difference !== 0) throw errors.notAllowed('order_difference_pending', { id: order.id });
    const now = tctx.clock.now();
    return orderDetail(tctx.tx, await dq.updateOrderRow(tctx.tx, order.id, { status: 'completed', updated_at: now }));
  });
}

export function archiveOrder(ctx: Ctx, orderId: string): Promise<AdminOrderView> {
  return onLockedOrder(ctx, orderId, async (tctx, order) => {
    if (order.status === 'archived') return orderDetail(tctx.tx, order);
    if (order.status !== 'completed' && order.status !== 'canceled')
      throw errors.notAllowed('order_not_archivable', { id: order.id });
    const now = tctx.clock.now();
    return orderDetail(tctx.tx, await dq.updateOrderRow(tctx.tx, order.id, { status: 'archived', updated_at: now }));
  });
}
