import type { TxCtx } from '../../platform/context.ts';
import { orderPreview, type OrderPreview } from '../orders/changes/views.ts';
import * as dq from '../orders/desk-queries.ts';
import type { ReturnView } from '../returns/schema.ts';
import { returnView } from '../returns/views.ts';
import * as xq from './queries.ts';
import type { SwapKind } from './queries.ts';
import { swapView, type SwapView } from './views.ts';

/** What every swap route answers: the order as the swap would leave it, the swap, maybe its return. */

export interface SwapAnswer {
  order_preview: OrderPreview;
  swap: SwapView;
  return?: ReturnView;
}

export async function swapAnswer(tctx: TxCtx, kind: SwapKind, id: string, withReturn = false): Promise<SwapAnswer> {
  const swap = (await xq.findSwap(tctx.tx, kind, id))!;
  const order = (await dq.findOrderRow(tctx.tx, swap.order_id))!;
  const answer: SwapAnswer = {
    order_preview: await orderPreview(tctx.tx, order),
    swap: await swapView(tctx.tx, kind, swap),
  };
  if (withReturn && swap.return_id) answer.return = await returnView(tctx.tx, swap.return_id);
  return answer;
}
