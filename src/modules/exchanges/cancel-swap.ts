import type { TxCtx } from '../../platform/context.ts';
import { applyLineActions } from '../order-edits/service.ts';
import { addAction, adjusts, cancelChange, confirmChange, openChange } from '../orders/changes/engine.ts';
import * as cq from '../orders/changes/queries.ts';
import * as dq from '../orders/desk-queries.ts';
import { settle } from '../orders/desk.ts';
import { followDifference } from '../orders/difference-collections.ts';
import { unitsValue } from '../orders/line-value.ts';
import type { OrderRow } from '../orders/queries.ts';
import * as rq from '../returns/queries.ts';
import * as xq from './queries.ts';
import type { SwapKind, SwapRow } from './queries.ts';
import { notActive, pendingChange } from './swap-guards.ts';

/**
 * Undoes a confirmed swap (`POST …/cancel`) as a new order version: its new lines go to 0 (their
 * held stock released), what it credited or charged beside the lines is reversed (REINSTATE_ITEM,
 * SHIPPING_REMOVE), its return and claim items stop counting. Refused once anything of it moved:
 * a new line fulfilled, or its return received.
 */
async function undoSwap(tctx: TxCtx, kind: SwapKind, order: OrderRow, swap: SwapRow): Promise<void> {
  const confirmed = (await xq.changesOfSwaps(tctx.tx, kind, [swap.id])).find((c) => c.status === 'confirmed');
  const actions = confirmed ? await cq.listActionsOf(tctx.tx, [confirmed.id]) : [];
  const lines = new Map((await dq.listLinesOf(tctx.tx, [order.id])).map((l) => [l.id, l]));
  const added = actions.filter((a) => a.action === 'ITEM_ADD').map((a) => lines.get(a.reference_id!)!);
  if (added.some((l) => l.fulfilled_quantity > 0))
    throw notActive(`The ${kind} ${swap.id} has items fulfilled and cannot be canceled`);
  const ret = swap.return_id ? await rq.findReturn(tctx.tx, swap.return_id) : undefined;
  if (ret && (ret.status === 'received' || ret.status === 'partially_received'))
    throw notActive(`The ${kind} ${swap.id} has items received and cannot be canceled`);
  const change = await openChange(tctx, order, kind, {
    [kind === 'exchange' ? 'exchange_id' : 'claim_id']: swap.id,
    description: `Cancel ${kind} ${swap.id}`,
  });
  for (const line of added)
    await addAction(
      tctx,
      change,
      'ITEM_UPDATE',
      { reference_id: line.id, quantity: 0, unit_price: line.unit_price },
      -unitsValue(line, line.quantity),
      { reference: 'order_line_item' },
    );
  for (const a of actions.filter(adjusts))
    await addAction(
      tctx,
      change,
      a.action === 'SHIPPING_ADD' ? 'SHIPPING_REMOVE' : 'REINSTATE_ITEM',
      { ...a.details, reference_id: a.reference_id ?? undefined },
      -a.amount,
      { reference: a.reference ?? undefined, reference_id: a.reference_id ?? undefined },
    );
  await confirmChange(tctx, order, change, (all) => applyLineActions(tctx, order, all));
  const after = await settle(tctx, (await dq.findOrderRow(tctx.tx, order.id))!);
  await followDifference(tctx, after);
}

/**
 * Cancels a swap: one not confirmed yet (`DELETE …/request`, or `POST …/cancel`) is dropped with
 * its change, nothing was applied; a confirmed one (`POST …/cancel` only) is undone.
 */
export async function cancelSwap(tctx: TxCtx, kind: SwapKind, swap: SwapRow, order?: OrderRow): Promise<void> {
  if (swap.canceled_at) return;
  if (swap.confirmed_at && !order)
    throw notActive(`The ${kind} ${swap.id} was confirmed: cancel it with POST /admin/${kind}s/${swap.id}/cancel`);
  const now = tctx.clock.now();
  if (swap.confirmed_at && order) {
    await undoSwap(tctx, kind, order, swap);
    if (swap.return_id)
      await rq.updateReturn(tctx.tx, swap.return_id, { status: 'canceled', canceled_at: now, updated_at: now });
    await xq.updateSwap(tctx.tx, kind, swap.id, { canceled_at: now, updated_at: now });
    return;
  }
  await cancelChange(tctx, await pendingChange(tctx, kind, swap));
  if (swap.return_id)
    await rq.updateReturn(tctx.tx, swap.return_id, { status: 'canceled', canceled_at: now, updated_at: now });
  await xq.updateSwap(tctx.tx, kind, swap.id, { canceled_at: now, updated_at: now });
}
