import { unitsValue } from '../orders/line-value.ts';
import type { TxCtx } from '../../platform/context.ts';
import { emit } from '../../platform/events/emit.ts';
import { errors } from '../../platform/http/errors.ts';
import { addAction, cancelChange, confirmChange, openChange } from '../orders/changes/engine.ts';
import * as cq from '../orders/changes/queries.ts';
import { restockVariant } from '../inventory/restock.ts';
import * as dq from '../orders/desk-queries.ts';
import type { OrderRow } from '../orders/queries.ts';
import * as rq from './queries.ts';
import { changeOf } from './request.ts';
import { parcelsArrived } from './return-fulfillment.ts';
import type { ReceiveItemsInput } from './schema.ts';

/**
 * Taking a return in: a `return_receive` change gathers what arrived, sellable
 * (RECEIVE_RETURN_ITEM) or damaged (RECEIVE_DAMAGED_RETURN_ITEM); confirming it restocks the
 * sellable units, counts both as returned, lowers what the order is worth by their price (so
 * `pending_difference` shows the refund owed) and emits order.return_received.
 */

const RECEIVABLE = new Set(['requested', 'partially_received']);

export async function beginReceive(
  tctx: TxCtx,
  order: OrderRow,
  ret: rq.ReturnRow,
  opts: { description?: string; internal_note?: string },
): Promise<void> {
  if (!RECEIVABLE.has(ret.status))
    throw errors.notAllowed('order_change_not_active', {
      detail: `Return ${ret.id} is ${ret.status}: only a requested return can be received`,
    });
  await openChange(tctx, order, 'return_receive', { return_id: ret.id, ...opts });
}

/**
 * Units of each line still expected back: asked, less received or damaged, less this receipt so
 * far (but for the action `except`, the one being changed).
 */
async function outstanding(
  tctx: TxCtx,
  ret: rq.ReturnRow,
  change: cq.ChangeRow,
  except?: string,
): Promise<Map<string, number>> {
  const left = new Map<string, number>();
  for (const i of await rq.itemsOfReturns(tctx.tx, [ret.id]))
    left.set(i.item_id, (left.get(i.item_id) ?? 0) + i.quantity - i.received_quantity - i.damaged_quantity);
  for (const a of await cq.listActionsOf(tctx.tx, [change.id]))
    if (a.id !== except) left.set(a.reference_id!, (left.get(a.reference_id!) ?? 0) - (a.details.quantity ?? 0));
  return left;
}

/**
 * Whether receiving this return credits the order: the inbound leg of an exchange was credited
 * when it was confirmed, a claim's by its claim items; receiving it moves stock, not money.
 */
const creditsOnReceipt = async (tctx: TxCtx, ret: rq.ReturnRow) => !(await cq.swapOfReturn(tctx.tx, ret.id));

export async function receiveItems(
  tctx: TxCtx,
  ret: rq.ReturnRow,
  input: ReceiveItemsInput,
  damaged: boolean,
): Promise<void> {
  const change = await changeOf(tctx, ret, 'return_receive');
  const left = await outstanding(tctx, ret, change);
  const credits = await creditsOnReceipt(tctx, ret);
  const lines = new Map((await dq.listLinesOf(tctx.tx, [ret.order_id])).map((l) => [l.id, l]));
  for (const item of input.items) {
    const line = lines.get(item.id);
    if (!line || !left.has(item.id)) throw errors.invalid('return_item_not_in_return', { id: item.id, return: ret.id });
    if (item.quantity > left.get(item.id)!) throw errors.invalid('return_receive_exceeds_requested', { id: item.id });
    left.set(item.id, left.get(item.id)! - item.quantity);
    await addAction(
      tctx,
      change,
      damaged ? 'RECEIVE_DAMAGED_RETURN_ITEM' : 'RECEIVE_RETURN_ITEM',
      { reference_id: item.id, quantity: item.quantity, description: item.description ?? null },
      credits ? -unitsValue(line, item.quantity) : 0,
      { reference: 'return', reference_id: item.id, internal_note: item.internal_note },
    );
  }
}

const RECEIVE_KINDS = { sellable: 'RECEIVE_RETURN_ITEM', damaged: 'RECEIVE_DAMAGED_RETURN_ITEM' } as const;

/**
 * Changes a pending receipt action in place (it keeps its id, as Medusa's): its quantity, within
 * what is still expected of that line, and its note (`null` clears it). `kind` is the route's:
 * `receive-items` changes sellable receipts, `dismiss-items` damaged ones.
 */
export async function updateReceiveAction(
  tctx: TxCtx,
  ret: rq.ReturnRow,
  actionId: string,
  kind: keyof typeof RECEIVE_KINDS,
  patch: { quantity?: number; internal_note?: string | null },
): Promise<void> {
  const change = await changeOf(tctx, ret, 'return_receive');
  const action = (await cq.listActionsOf(tctx.tx, [change.id])).find(
    (a) => a.id === actionId && a.action === RECEIVE_KINDS[kind],
  );
  if (!action) throw errors.notFound('return_action_not_found', { id: actionId, return: ret.id });
  const quantity = patch.quantity ?? action.details.quantity!;
  const left = (await outstanding(tctx, ret, change, action.id)).get(action.reference_id!) ?? 0;
  if (quantity > left) throw errors.invalid('return_receive_exceeds_requested', { id: action.reference_id! });
  const line = (await dq.listLinesOf(tctx.tx, [ret.order_id])).find((l) => l.id === action.reference_id)!;
  await cq.updateAction(tctx.tx, action.id, {
    details: { ...action.details, quantity },
    amount: (await creditsOnReceipt(tctx, ret)) ? -unitsValue(line, quantity) : 0,
    internal_note: patch.internal_note === undefined ? action.internal_note : patch.internal_note,
    updated_at: tctx.clock.now(),
  });
}

export async function removeReceiveAction(tctx: TxCtx, ret: rq.ReturnRow, actionId: string): Promise<void> {
  const change = await changeOf(tctx, ret, 'return_receive');
  const action = (await cq.listActionsOf(tctx.tx, [change.id])).find((a) => a.id === actionId);
  if (!action) throw errors.notFound('return_action_not_found', { id: actionId, return: ret.id });
  await cq.deleteAction(tctx.tx, action.id);
}

export async function cancelReceive(tctx: TxCtx, ret: rq.ReturnRow): Promise<void> {
  const change = await changeOf(tctx, ret, 'return_receive');
  await cancelChange(tctx, change);
}

/**
 * Confirms the receipt. The order lock and the change's status make it happen once: a second
 * confirmation finds no receipt in progress and is refused with nothing written.
 */
export async function confirmReceive(tctx: TxCtx, order: OrderRow, ret: rq.ReturnRow, noNotification?: boolean) {
  const change = await changeOf(tctx, ret, 'return_receive');
  const actions = await cq.listActionsOf(tctx.tx, [change.id]);
  if (!actions.length) throw errors.invalid('return_nothing_received', { id: ret.id });
  const now = tctx.clock.now();
  const items = await rq.itemsOfReturns(tctx.tx, [ret.id]);
  const lines = new Map((await dq.listLinesOf(tctx.tx, [ret.order_id])).map((l) => [l.id, l]));
  await confirmChange(tctx, order, change, async (all) => {
    for (const a of all) {
      let quantity = a.details.quantity!;
      const damaged = a.action === 'RECEIVE_DAMAGED_RETURN_ITEM';
      // Spread over the return's rows for that line (a line may be asked back in parts).
      for (const row of items.filter((i) => i.item_id === a.reference_id)) {
        const take = Math.min(quantity, row.quantity - row.received_quantity - row.damaged_quantity);
        if (take <= 0) continue;
        if (damaged) row.damaged_quantity += take;
        else row.received_quantity += take;
        quantity -= take;
        await rq.updateReturnItem(tctx.tx, row.id, {
          received_quantity: row.received_quantity,
          damaged_quantity: row.damaged_quantity,
          updated_at: now,
        });
      }
      await rq.addReturnedQuantity(tctx.tx, a.reference_id!, a.details.quantity!, now);
      // Only what came back sellable goes back on the shelf, at the return's location.
      const variantId = lines.get(a.reference_id!)!.variant_id;
      if (!damaged && variantId) await restockVariant(tctx.tx, variantId, a.details.quantity!, now, ret.location_id);
    }
  });
  const done = items.every((i) => i.received_quantity + i.damaged_quantity >= i.quantity);
  const no_notification = noNotification ?? ret.no_notification;
  await rq.updateReturn(tctx.tx, ret.id, {
    status: done ? 'received' : 'partially_received',
    received_at: now,
    no_notification,
    updated_at: now,
  });
  if (done) await parcelsArrived(tctx, ret);
  await emit(tctx, 'order.return_received', { id: order.id, order_id: order.id, return_id: ret.id, no_notification });
}
