import type { TxCtx } from '../../platform/context.ts';
import { errors } from '../../platform/http/errors.ts';
import { addLineActions } from '../order-edits/service.ts';
import type { AddItemsInput } from '../order-edits/schema.ts';
import { addAction } from '../orders/changes/engine.ts';
import * as cq from '../orders/changes/queries.ts';
import * as dq from '../orders/desk-queries.ts';
import { unitsValue } from '../orders/line-value.ts';
import type { OrderRow } from '../orders/queries.ts';
import {
  createReturn,
  requoteLeg,
  returnItemActions,
  shippingAction,
  updateShippingAction,
} from '../returns/request.ts';
import { calculatedLegPrice, type ReturnQuotes } from '../returns/return-shipping-quote.ts';
import type { RequestItemsInput, ShippingActionPatch, ShippingMethodInput } from '../returns/schema.ts';
import type { ClaimReason } from '../claims/tables.ts';
import * as xq from './queries.ts';
import type { SwapKind, SwapRow } from './queries.ts';
import { invalid, pendingChange } from './swap-guards.ts';

/**
 * A swap being put together: its inbound leg (items back through the swap's return, return
 * shipping), its outbound leg (new lines, their shipping), a claim's claimed items, and edits of
 * any of these actions while the swap's change is pending.
 */

/** The swap's return, opened with its first inbound item or shipping, carried by the swap's change. */
async function inboundChange(tctx: TxCtx, kind: SwapKind, order: OrderRow, swap: SwapRow): Promise<cq.ChangeRow> {
  const change = await pendingChange(tctx, kind, swap);
  if (swap.return_id) return change;
  const ret = await createReturn(tctx, order, {}, change);
  await xq.updateSwap(tctx.tx, kind, swap.id, { return_id: ret.id, updated_at: tctx.clock.now() });
  return (await cq.findChange(tctx.tx, change.id))!;
}

export async function addInboundItems(
  tctx: TxCtx,
  kind: SwapKind,
  order: OrderRow,
  swap: SwapRow,
  input: RequestItemsInput,
  quotes: ReturnQuotes,
): Promise<void> {
  const change = await inboundChange(tctx, kind, order, swap);
  await returnItemActions(tctx, change, input, { deduct: kind === 'exchange' });
  // A calculated return shipping already chosen is priced again for the items now asked back.
  await requoteLeg(tctx, order, change, 'inbound', quotes);
}

export async function addShipping(
  tctx: TxCtx,
  kind: SwapKind,
  order: OrderRow,
  swap: SwapRow,
  input: ShippingMethodInput,
  direction: 'inbound' | 'outbound',
  quotes: ReturnQuotes,
): Promise<void> {
  const change =
    direction === 'inbound' ? await inboundChange(tctx, kind, order, swap) : await pendingChange(tctx, kind, swap);
  // A leg by a `calculated` option is priced by its carrier, as a return's shipping is: the return
  // leg for the items asked back, the outbound leg for the new items sent (asked with the order
  // unlocked: the route reruns this step with the quote).
  let quoted: number | undefined;
  if (input.custom_amount === undefined) {
    const actions = await cq.listActionsOf(tctx.tx, [change.id]);
    const optionId = input.shipping_option_id;
    quoted = (await calculatedLegPrice(tctx, order, change, actions, optionId, direction, quotes)) ?? undefined;
  }
  await shippingAction(tctx, change, input, direction, quoted);
}

/**
 * Changes the price (`custom_amount`; `null`: the option's, its carrier's quote for a calculated
 * one), note or metadata of a pending shipping.
 */
export async function updateShipping(
  tctx: TxCtx,
  kind: SwapKind,
  order: OrderRow,
  swap: SwapRow,
  actionId: string,
  direction: 'inbound' | 'outbound',
  patch: ShippingActionPatch,
  quotes: ReturnQuotes,
): Promise<void> {
  const change = await pendingChange(tctx, kind, swap);
  if (!(await updateShippingAction(tctx, change, actionId, direction, patch, { order, quotes })))
    throw errors.notFound('swap_action_not_found', { id: actionId, kind, swap: swap.id });
}

export async function addOutboundItems(
  tctx: TxCtx,
  kind: SwapKind,
  order: OrderRow,
  swap: SwapRow,
  input: AddItemsInput,
  quotes: ReturnQuotes,
): Promise<void> {
  const change = await pendingChange(tctx, kind, swap);
  // A claim's replacements are sent at no charge.
  await addLineActions(tctx, change, order, input, { free: kind === 'claim' });
  // A calculated shipping of the new items already chosen is priced again for them.
  await requoteLeg(tctx, order, change, 'outbound', quotes);
}

/** A claim's items (WRITE_OFF_ITEM): at most what was fulfilled and not claimed before. */
export async function addClaimItems(
  tctx: TxCtx,
  order: OrderRow,
  swap: SwapRow,
  input: {
    items: { id: string; quantity: number; reason?: ClaimReason; description?: string; internal_note?: string }[];
  },
): Promise<void> {
  const change = await pendingChange(tctx, 'claim', swap);
  const refund = (swap as xq.ClaimRow).type === 'refund';
  const lines = new Map((await dq.listLinesOf(tctx.tx, [order.id])).map((l) => [l.id, l]));
  const claimed = await xq.claimedByLine(tctx.tx, order.id);
  for (const a of await cq.listActionsOf(tctx.tx, [change.id]))
    if (a.action === 'WRITE_OFF_ITEM')
      claimed.set(a.reference_id!, (claimed.get(a.reference_id!) ?? 0) + (a.details.quantity ?? 0));
  for (const item of input.items) {
    const line = lines.get(item.id);
    if (!line) throw invalid(`Item ID "${item.id}" not found.`);
    const left = line.fulfilled_quantity - (claimed.get(item.id) ?? 0);
    if (item.quantity > left) throw invalid(`Cannot claim more items than what was fulfilled for item ${item.id}.`);
    claimed.set(item.id, (claimed.get(item.id) ?? 0) + item.quantity);
    await addAction(
      tctx,
      change,
      'WRITE_OFF_ITEM',
      {
        reference_id: item.id,
        quantity: item.quantity,
        reason: item.reason ?? 'other',
        note: item.description ?? null,
      },
      refund ? -unitsValue(line, item.quantity) : 0,
      { reference: 'order_claim', reference_id: item.id, internal_note: item.internal_note },
    );
  }
}

/**
 * Changes (quantity) or removes one action of the swap's pending change, of one of `kinds`; the
 * calculated shipping of the leg whose items changed is priced again (`quotes`, as when it was added).
 */
export async function editSwapAction(
  tctx: TxCtx,
  kind: SwapKind,
  order: OrderRow,
  swap: SwapRow,
  actionId: string,
  kinds: cq.ActionRow['action'][],
  patch: { quantity?: number; reason_id?: string | null; internal_note?: string | null } | null,
  quotes: ReturnQuotes,
  direction?: 'inbound' | 'outbound',
): Promise<void> {
  const change = await pendingChange(tctx, kind, swap);
  const action = (await cq.listActionsOf(tctx.tx, [change.id])).find(
    (a) =>
      a.id === actionId &&
      kinds.includes(a.action) &&
      (!direction || a.action !== 'SHIPPING_ADD' || (a.details.direction ?? 'inbound') === direction),
  );
  if (!action) throw errors.notFound('swap_action_not_found', { id: actionId, kind, swap: swap.id });
  await cq.deleteAction(tctx.tx, action.id);
  const leg = action.action === 'RETURN_ITEM' ? 'inbound' : action.action === 'ITEM_ADD' ? 'outbound' : undefined;
  if (patch) await changeSwapAction(tctx, kind, order, swap, change, action, patch);
  if (leg) await requoteLeg(tctx, order, change, leg, quotes);
}

/** The action removed by editSwapAction, added again as `patch` changes it. */
async function changeSwapAction(
  tctx: TxCtx,
  kind: SwapKind,
  order: OrderRow,
  swap: SwapRow,
  change: cq.ChangeRow,
  action: cq.ActionRow,
  patch: { quantity?: number; reason_id?: string | null; internal_note?: string | null },
): Promise<void> {
  const quantity = patch.quantity ?? action.details.quantity!;
  const note = (patch.internal_note === undefined ? action.internal_note : patch.internal_note) ?? undefined;
  if (action.action === 'RETURN_ITEM')
    await returnItemActions(
      tctx,
      change,
      {
        items: [
          {
            id: action.reference_id!,
            quantity,
            reason_id: (patch.reason_id === undefined ? action.details.reason_id : patch.reason_id) ?? undefined,
            internal_note: note,
          },
        ],
      },
      { deduct: kind === 'exchange' },
    );
  else if (action.action === 'ITEM_ADD')
    await addLineActions(
      tctx,
      change,
      order,
      {
        items: [
          {
            variant_id: action.details.variant_id!,
            quantity,
            unit_price: action.details.unit_price,
            internal_note: note,
          },
        ],
      },
      { free: kind === 'claim' },
    );
  else if (action.action === 'WRITE_OFF_ITEM')
    await addClaimItems(tctx, order, swap, {
      items: [
        {
          id: action.reference_id!,
          quantity,
          reason: action.details.reason as ClaimReason,
          description: (action.details.note as string | undefined) ?? undefined,
          internal_note: note,
        },
      ],
    });
}
