import type { TxCtx } from '../../platform/context.ts';
import { emit } from '../../platform/events/emit.ts';
import { newId } from '../../platform/ids.ts';
import { applyLineActions } from '../order-edits/service.ts';
import { adjusts, confirmChange } from '../orders/changes/engine.ts';
import * as cq from '../orders/changes/queries.ts';
import * as dq from '../orders/desk-queries.ts';
import { settle } from '../orders/desk.ts';
import { followDifference } from '../orders/difference-collections.ts';
import type { OrderRow } from '../orders/queries.ts';
import * as rq from '../returns/queries.ts';
import { writeReturnItems } from '../returns/request.ts';
import { type ReturnCarrier, shipReturnBack } from '../returns/return-fulfillment.ts';
import type { ClaimReason } from '../claims/tables.ts';
import * as xq from './queries.ts';
import type { SwapKind, SwapRow } from './queries.ts';
import { invalid, pendingChange } from './swap-guards.ts';

/**
 * Exchanges and claims: after-sale swaps on one order change each (Medusa's `exchange` and
 * `claim` change types). Items come back through the swap's return (its inbound leg), new items go
 * out as order lines (its outbound leg: their stock is taken and held for them when the swap is
 * confirmed, and they are fulfilled like any line). Money:
 * - an exchange credits its inbound items when confirmed and charges its outbound items and
 *   shipping: `difference_due` = outbound + shipping − inbound lands in `pending_difference`,
 *   collected through a payment collection or refunded through the payment;
 * - a claim's replacements go out at no charge; a `refund` claim credits its claimed items
 *   (WRITE_OFF_ITEM), a `replace` claim credits nothing;
 * - receiving a swap's return moves stock only (its money was settled by the swap).
 */

/**
 * Confirms the swap (`POST /admin/{exchanges|claims}/{id}/request`) in one transaction under the
 * order lock: the order's next version with the return's items, the new lines (stock taken and
 * held), the money beside them; the return is requested; the difference left is collected or
 * owed. A second confirmation finds no pending change and is refused with nothing written.
 */
export async function confirmSwap(
  tctx: TxCtx,
  kind: SwapKind,
  order: OrderRow,
  swap: SwapRow,
  carrier: ReturnCarrier,
): Promise<void> {
  const change = await pendingChange(tctx, kind, swap);
  const actions = await cq.listActionsOf(tctx.tx, [change.id]);
  const inbound = actions.filter((a) => a.action === 'RETURN_ITEM');
  const outbound = actions.filter((a) => a.action === 'ITEM_ADD');
  if (kind === 'exchange' && (!inbound.length || !outbound.length))
    throw invalid('Order exchange request should have at least 1 item inbound and 1 item outbound');
  const writeOffs = actions.filter((a) => a.action === 'WRITE_OFF_ITEM');
  if (kind === 'claim' && !writeOffs.length) throw invalid('Claim should have at least one item claimed');
  const ret = swap.return_id ? await rq.findReturn(tctx.tx, swap.return_id) : undefined;
  const now = tctx.clock.now();
  const confirmed = await confirmChange(tctx, order, change, async (all) => {
    if (ret) await writeReturnItems(tctx, ret, all);
    await applyLineActions(tctx, order, all);
    for (const a of writeOffs)
      await xq.insertClaimItem(tctx.tx, {
        id: newId('claitem'),
        claim_id: swap.id,
        order_id: order.id,
        item_id: a.reference_id!,
        quantity: a.details.quantity!,
        reason: a.details.reason as ClaimReason,
        note: (a.details.note as string | null) ?? null,
        metadata: null,
        created_at: now,
        updated_at: now,
      });
  });
  if (ret) {
    if (inbound.length) {
      await rq.updateReturn(tctx.tx, ret.id, { status: 'requested', requested_at: now, updated_at: now });
      // Its inbound shipping's provider makes the return parcel, as a return's request does.
      await shipReturnBack(tctx, order, ret, actions, carrier);
    } else await rq.updateReturn(tctx.tx, ret.id, { status: 'canceled', canceled_at: now, updated_at: now });
  }
  const moved = actions.filter((a) => a.action === 'ITEM_ADD' || adjusts(a)).reduce((s, a) => s + a.amount, 0);
  await xq.updateSwap(
    tctx.tx,
    kind,
    swap.id,
    kind === 'exchange'
      ? { difference_due: moved, confirmed_at: now, updated_at: now }
      : { refund_amount: -writeOffs.reduce((s, a) => s + a.amount, 0), confirmed_at: now, updated_at: now },
  );
  const after = await settle(tctx, (await dq.findOrderRow(tctx.tx, order.id))!);
  await followDifference(tctx, after);
  const payload = {
    id: order.id,
    order_id: order.id,
    order_change_id: confirmed.id,
    version: confirmed.version,
    return_id: ret && inbound.length ? ret.id : null,
    no_notification: swap.no_notification,
  };
  if (kind === 'exchange') await emit(tctx, 'order.exchange_created', { ...payload, exchange_id: swap.id });
  else await emit(tctx, 'order.claim_created', { ...payload, claim_id: swap.id });
}
