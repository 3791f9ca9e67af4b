import type { Ctx, TxCtx } from '../../platform/context.ts';
import { errors } from '../../platform/http/errors.ts';
import { assertUsable } from '../checkout/cart-promotions.ts';
import { addAction } from '../orders/changes/engine.ts';
import * as cq from '../orders/changes/queries.ts';
import type { OrderPreview } from '../orders/changes/views.ts';
import * as dq from '../orders/desk-queries.ts';
import { onLockedDraft } from './draft-lock.ts';
import type { OrderRow } from '../orders/queries.ts';
import { editOf } from '../order-edits/service.ts';
import * as pq from '../promotions/queries.ts';
import { draftPreview, draftPromotionIds, pricedRows, prospectiveRows } from './pricing.ts';

/**
 * A draft's promotion codes, added and removed in its open edit (Medusa's
 * `POST|DELETE /admin/draft-orders/{id}/edit/promotions`, body `{ promo_codes }`). As on a cart,
 * a code is refused, naming it, when it does not exist or cannot be used now, or when it would
 * not discount the draft as the edit leaves it; nothing is written then.
 */

export function addDraftPromotions(ctx: Ctx, id: string, codes: string[]): Promise<OrderPreview> {
  return onLockedDraft(ctx, id, async (tctx, order) => {
    await addCodes(tctx, order, await editOf(tctx, order, ['pending']), codes);
    return draftPreview(tctx, order);
  });
}

/** PROMOTION_ADD actions of `change` for `codes`, each refused by name unless it discounts the draft as the change leaves it. */
export async function addCodes(tctx: TxCtx, order: OrderRow, change: cq.ChangeRow, codes: string[]): Promise<void> {
  const found = await pq.findByCodes(tctx.tx, codes);
  await assertUsable(tctx.tx, tctx.clock.now(), codes, new Map(found.map((p) => [p.code.toLowerCase(), p])));
  const applied = await draftPromotionIds(tctx.tx, order.id, await cq.listActionsOf(tctx.tx, [change.id]));
  for (const p of found)
    if (!applied.includes(p.id))
      await addAction(tctx, change, 'PROMOTION_ADD', { reference_id: p.id, code: p.code }, 0, {
        reference: 'order_promotion',
      });
  const actions = await cq.listActionsOf(tctx.tx, [change.id]);
  const rows = prospectiveRows(
    await dq.listLinesOf(tctx.tx, [order.id]),
    await dq.listMethodsOf(tctx.tx, [order.id]),
    actions,
  );
  const { priced } = await pricedRows(tctx, order, rows, await draftPromotionIds(tctx.tx, order.id, actions));
  const discounting = new Set(priced.promotions.map((p) => p.promotion.code.toLowerCase()));
  const exceeded = new Set(priced.exceeded.map((c) => c.toLowerCase()));
  for (const code of codes) {
    if (discounting.has(code.toLowerCase())) continue;
    if (exceeded.has(code.toLowerCase())) throw errors.invalid('promotion_code_budget_used', { code });
    throw errors.invalid('draft_promotion_rules_unmet', { code });
  }
}

/** Codes the draft does not have are passed over, as a cart's are. */
export function removeDraftPromotions(ctx: Ctx, id: string, codes: string[]): Promise<OrderPreview> {
  return onLockedDraft(ctx, id, async (tctx, order) => {
    const change = await editOf(tctx, order, ['pending']);
    const found = await pq.findByCodes(tctx.tx, codes);
    const actions = await cq.listActionsOf(tctx.tx, [change.id]);
    const confirmed = await draftPromotionIds(tctx.tx, order.id);
    for (const p of found) {
      // Added by this edit: the addition goes; applied before: a removal is recorded.
      const adding = actions.find((a) => a.action === 'PROMOTION_ADD' && a.reference_id === p.id);
      if (adding) await cq.deleteAction(tctx.tx, adding.id);
      else if (
        confirmed.includes(p.id) &&
        !actions.some((a) => a.action === 'PROMOTION_REMOVE' && a.reference_id === p.id)
      )
        await addAction(tctx, change, 'PROMOTION_REMOVE', { reference_id: p.id, code: p.code }, 0, {
          reference: 'order_promotion',
        });
    }
    return draftPreview(tctx, order);
  });
}
