import type { Ctx } from '../../platform/context.ts';
import { newId } from '../../platform/ids.ts';
import { openChange } from '../orders/changes/engine.ts';
import { onLockedOrder } from '../orders/desk.ts';
import type { AdminOrderView } from '../orders/desk-schema.ts';
import { orderDetail } from '../orders/desk-view.ts';
import type { ClaimType } from '../claims/tables.ts';
import * as xq from './queries.ts';
import type { SwapKind } from './queries.ts';
import { swapView, type SwapView } from './views.ts';

/** Opens a swap: its row and its order change (one open change per order). */
export function createSwap(
  ctx: Ctx,
  kind: SwapKind,
  input: {
    order_id: string;
    type?: ClaimType;
    description?: string;
    internal_note?: string;
    metadata?: Record<string, unknown> | null;
  },
): Promise<{ order: AdminOrderView; swap: SwapView }> {
  return onLockedOrder(ctx, input.order_id, async (tctx, order) => {
    const id = newId(kind === 'exchange' ? 'exchange' : 'claim');
    const now = tctx.clock.now();
    await openChange(tctx, order, kind, {
      [kind === 'exchange' ? 'exchange_id' : 'claim_id']: id,
      description: input.description,
      internal_note: input.internal_note,
    });
    const common = {
      id,
      order_id: order.id,
      return_id: null,
      no_notification: false,
      created_by: tctx.actor?.id ?? null,
      confirmed_at: null,
      canceled_at: null,
      metadata: input.metadata ?? null,
      created_at: now,
      updated_at: now,
    };
    if (kind === 'exchange')
      await xq.insertExchange(tctx.tx, { ...common, difference_due: null, allow_backorder: false });
    else await xq.insertClaim(tctx.tx, { ...common, type: input.type ?? 'replace', refund_amount: null });
    return {
      order: await orderDetail(tctx.tx, order),
      swap: await swapView(tctx.tx, kind, (await xq.findSwap(tctx.tx, kind, id))!),
    };
  });
}
