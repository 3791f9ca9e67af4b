import { inTx, type Ctx, type TxCtx } from '../../platform/context.ts';
import { askingTaxesFirst } from '../cart-pricing/tax-answers.ts';
import { onLockedOrder } from '../orders/desk.ts';
import type { OrderRow } from '../orders/queries.ts';

/** The draft desk's scope of the order lock: a draft, never a placed order. */
export const DRAFT = { draft: true } as const;

/**
 * A locked draft's transaction. Its pricing may need a plugin's tax provider (a remote service,
 * maybe slow), which is never asked while the draft is locked: the transaction stops at the
 * question, the provider is asked with none open, and it runs again with the answer, as a cart's
 * does (cart-pricing/tax-answers.ts).
 */
export function onLockedDraft<T>(ctx: Ctx, id: string, fn: (tctx: TxCtx, order: OrderRow) => Promise<T>): Promise<T> {
  return askingTaxesFirst(ctx, (actx) => onLockedOrder(actx, id, fn, DRAFT));
}

/** A draft's transaction without the lock (one being created, a preview read), taxes asked the same way. */
export function inDraftTx<T>(ctx: Ctx, fn: (tctx: TxCtx) => Promise<T>): Promise<T> {
  return askingTaxesFirst(ctx, (actx) => inTx(actx, fn));
}
