import { executor, type Ctx } from '../../../platform/context.ts';
import { errors } from '../../../platform/http/errors.ts';
import * as dq from '../desk-queries.ts';
import { onLockedOrder } from '../desk.ts';
import * as cq from './queries.ts';
import type { OrderChangeView, UpdateOrderChangeInput } from './schema.ts';
import { changeViews } from './views.ts';

const notFound = (id: string) => errors.notFound('order_change_not_found', { id });

/**
 * `POST /admin/order-changes/{id}` (Medusa 2.12): an active change's internal note, and
 * `carry_over_promotions`. New items of a change are priced without the order's promotions here,
 * so only `false` is accepted: `true` is refused rather than stored and not honoured.
 */
export async function updateOrderChange(ctx: Ctx, id: string, input: UpdateOrderChangeInput): Promise<OrderChangeView> {
  if (input.carry_over_promotions) throw errors.invalid('order_change_promotions_not_carried');
  const db = executor(ctx);
  const found = await cq.findChange(db, id);
  const owner = found && (await dq.findOrderRow(db, found.order_id));
  if (!found || !owner) throw notFound(id);
  return onLockedOrder(
    ctx,
    owner.id,
    async (tctx, order) => {
      const change = await cq.findChange(tctx.tx, id);
      if (!change) throw notFound(id);
      if (change.status !== 'pending' && change.status !== 'requested')
        throw errors.notAllowed('order_change_not_active', {
          detail: `Order change ${id} is ${change.status}: only an active change can be updated`,
        });
      const updated =
        input.internal_note === undefined
          ? change
          : await cq.updateChange(tctx.tx, id, { internal_note: input.internal_note, updated_at: tctx.clock.now() });
      return changeViews(order.currency_code, [updated], await cq.listActionsOf(tctx.tx, [id]))[0];
    },
    { draft: owner.is_draft_order },
  );
}
