import type { TxCtx } from '../../platform/context.ts';
import { carrierCallLostAfterMs } from '../fulfillment/providers.ts';
import * as dq from './desk-queries.ts';
import type { OrderLineRow, OrderRow } from './queries.ts';

/**
 * A fulfilment whose carrier gave no answer in time (`unanswered`, or `calling` long after its
 * request was lost) is kept only for a retry of the same units, which takes it over and asks with
 * the same id. It holds no units and is none of the order's fulfilments. Once no retry can take it
 * over (its units were fulfilled otherwise, the order was edited below them, or canceled) it is
 * dropped; the carrier may hold a label under its id, which the warning names.
 */
export async function dropUnretryableFulfilments(
  tctx: TxCtx,
  order: Pick<OrderRow, 'id'>,
  lines: OrderLineRow[],
  pending: dq.FulfillmentRow[],
  canceled: boolean,
): Promise<void> {
  if (!pending.length) return;
  const now = tctx.clock.now().getTime();
  // Without the running providers (a job) a `calling` row's call may still be under way: kept.
  const lostAfter = tctx.providers ? carrierCallLostAfterMs(tctx.providers) : Number.POSITIVE_INFINITY;
  const left = new Map(lines.map((l) => [l.id, l.quantity - l.fulfilled_quantity]));
  for (const f of pending) {
    const waiting = f.carrier_pending === 'unanswered' || now - f.updated_at.getTime() >= lostAfter;
    if (!waiting) continue;
    const retryable = !canceled && f.items.every((i) => i.quantity <= (left.get(i.line_item_id) ?? 0));
    if (retryable) continue;
    await dq.deletePendingFulfillment(tctx.tx, f.id);
    tctx.log.warn(
      { fulfillment_id: f.id, provider_id: f.provider_id, order_id: order.id },
      'fulfilment whose carrier never answered dropped: no retry can take it over; the carrier may hold a label under its id',
    );
  }
}
