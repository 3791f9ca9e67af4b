import type { Ctx, TxCtx } from '../../platform/context.ts';
import { errors } from '../../platform/http/errors.ts';
import * as cq from '../orders/changes/queries.ts';
import { onLockedOrder } from '../orders/desk.ts';
import type { OrderRow } from '../orders/queries.ts';
import * as xq from './queries.ts';
import type { SwapKind, SwapRow } from './queries.ts';

/** What every step of a swap starts with: its order's lock, its pending change, its refusals. */

export const swapNotFound = (kind: SwapKind, id: string) =>
  kind === 'exchange' ? errors.notFound('exchange_not_found', { id }) : errors.notFound('claim_not_found', { id });

export const notActive = (detail: string) => errors.notAllowed('order_change_not_active', { detail });
export const invalid = (detail: string) => errors.invalid('order_change_invalid', { detail });

/** Runs `fn` under the lock of the swap's order, with the swap as it is then. */
export async function onLockedSwap<T>(
  ctx: Ctx,
  kind: SwapKind,
  id: string,
  fn: (tctx: TxCtx, order: OrderRow, swap: SwapRow) => Promise<T>,
): Promise<T> {
  const found = await xq.findSwap(ctx.db, kind, id);
  if (!found) throw swapNotFound(kind, id);
  return onLockedOrder(ctx, found.order_id, async (tctx, order) =>
    fn(tctx, order, (await xq.findSwap(tctx.tx, kind, id))!),
  );
}

/** The swap's change while it is being put together (pending), or a refusal. */
export async function pendingChange(tctx: TxCtx, kind: SwapKind, swap: SwapRow): Promise<cq.ChangeRow> {
  const open = await cq.openChangeOf(tctx.tx, swap.order_id);
  const mine = open && (kind === 'exchange' ? open.exchange_id : open.claim_id) === swap.id;
  if (!mine || open.status !== 'pending') throw notActive(`The ${kind} ${swap.id} is not being requested`);
  return open;
}
