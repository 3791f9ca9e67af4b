import type { Ctx } from '../../../platform/context.ts';
import { errors } from '../../../platform/http/errors.ts';
import { newId } from '../../../platform/ids.ts';
import { onLockedOrder } from '../desk.ts';
import type { AdminOrderView } from '../desk-schema.ts';
import { orderDetail } from '../desk-view.ts';
import * as dq from '../desk-queries.ts';
import { addAction, assertChangeable, confirmChange, openChange } from './engine.ts';
import * as cq from './queries.ts';
import type { CreateCreditLineInput } from './schema.ts';

/**
 * Medusa's `POST /admin/orders/{id}/credit-lines` (its createOrderCreditLinesWorkflow): a credit
 * line settles what the order's pending difference says is owed, without a payment. Steps:
 * 1. refuse a canceled or archived order (Medusa lets its own rule below refuse those);
 * 2. check the amount against `summary.pending_difference` as Medusa does: there must be one, the
 *    line must have its sign and be at most as large; a zero line settles nothing and is refused
 *    too (Medusa stores it);
 * 3. a `credit_line` change with one CREDIT_LINE_ADD action, confirmed at once: the order keeps
 *    its previous version, the line is written in the new one. Another open change refuses it
 *    (it would be confirmed on a version it was not made for).
 * No event, as Medusa's (its workflow offers a hook only). One transaction under the order lock.
 */
export function createCreditLine(ctx: Ctx, orderId: string, input: CreateCreditLineInput): Promise<AdminOrderView> {
  return onLockedOrder(ctx, orderId, async (tctx, order) => {
    assertChangeable(order);
    const pending = (await orderDetail(tctx.tx, order)).summary.pending_difference;
    if (pending === 0) throw errors.invalid('order_credit_line_no_difference', { id: order.id });
    const { amount } = input;
    if (amount === 0 || Math.sign(amount) !== Math.sign(pending) || Math.abs(amount) > Math.abs(pending))
      throw errors.invalid('order_credit_line_amount', { amount, pending });
    const change = await openChange(tctx, order, 'credit_line');
    const refs = { reference: input.reference, reference_id: input.reference_id };
    await addAction(tctx, change, 'CREDIT_LINE_ADD', { ...refs }, amount, refs);
    await confirmChange(tctx, order, change, async () => {
      const now = tctx.clock.now();
      await cq.insertCreditLine(tctx.tx, {
        id: newId('ordcl'),
        order_id: order.id,
        version: change.version,
        ...refs,
        amount,
        metadata: input.metadata ?? null,
        created_at: now,
        updated_at: now,
      });
    });
    return orderDetail(tctx.tx, (await dq.findOrderRow(tctx.tx, order.id))!);
  });
}
