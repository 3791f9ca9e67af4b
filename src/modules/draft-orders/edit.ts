import type { Ctx, TxCtx } from '../../platform/context.ts';
import { errors } from '../../platform/http/errors.ts';
import { eq } from 'drizzle-orm';
import { addAction, confirmChange, openChange } from '../orders/changes/engine.ts';
import * as cq from '../orders/changes/queries.ts';
import type { OrderPreview } from '../orders/changes/views.ts';
import * as dq from '../orders/desk-queries.ts';
import { draftNotFound } from '../orders/desk.ts';
import type { OrderLineRow, OrderRow, OrderShippingMethodRow } from '../orders/queries.ts';
import { orderLineItems } from '../orders/tables.ts';
import * as eq2 from '../order-edits/queries.ts';
import { editOf } from '../order-edits/service.ts';
import { draftPreview, repriceDraft } from './pricing.ts';
import * as q from './queries.ts';
import type { AddShippingMethodInput, DraftItem, UpdateShippingMethodInput } from './schema.ts';
import { inDraftTx, onLockedDraft } from './draft-lock.ts';
import { draftLine, draftMethod, draftVariants } from './service.ts';

/**
 * Editing a draft order as Medusa does (`/admin/draft-orders/{id}/edit…`): begin, gather actions
 * (items, shipping methods), request, confirm into the draft's next version, or cancel. The
 * item updates, request and cancel are the order edit's own (order-edits/service.ts, with the
 * draft scope); adding items (custom ones too), shipping methods and confirming are the draft's:
 * a draft holds no stock, so nothing moves on the shelf until it is converted.
 */

const preview = (tctx: TxCtx, order: OrderRow) => draftPreview(tctx, order);

/**
 * An order edit's own step run on the draft (item updates, request: order-edits/service.ts with
 * the draft scope), answered with the draft's priced preview, read once it committed.
 */
export async function withDraftPreview(ctx: Ctx, id: string, step: () => Promise<unknown>): Promise<OrderPreview> {
  await step();
  return inDraftTx(ctx, async (tctx) => {
    const order = await dq.findOrderRow(tctx.tx, id);
    if (!order?.is_draft_order) throw draftNotFound(id);
    return draftPreview(tctx, order);
  });
}

function onDraft<T>(ctx: Ctx, id: string, fn: (tctx: TxCtx, order: OrderRow) => Promise<T>): Promise<T> {
  return onLockedDraft(ctx, id, fn);
}

/** Runs `step` on the draft's pending edit, under the draft's lock, and answers with the draft's preview. */
function onDraftEdit(
  ctx: Ctx,
  id: string,
  step: (tctx: TxCtx, order: OrderRow, change: cq.ChangeRow) => Promise<void>,
): Promise<OrderPreview> {
  return onDraft(ctx, id, async (tctx, order) => {
    await step(tctx, order, await editOf(tctx, order, ['pending']));
    return preview(tctx, order);
  });
}

export function beginDraftEdit(ctx: Ctx, id: string): Promise<OrderPreview> {
  return onDraft(ctx, id, async (tctx, order) => {
    await openChange(tctx, order, 'edit');
    return preview(tctx, order);
  });
}

export function addDraftItems(ctx: Ctx, id: string, items: DraftItem[]): Promise<OrderPreview> {
  return onDraftEdit(ctx, id, async (tctx, order, change) => {
    const variants = await draftVariants(tctx, order, items);
    const now = tctx.clock.now();
    for (const item of items) {
      const line = draftLine(order, item, variants, now);
      await addAction(
        tctx,
        change,
        'ITEM_ADD',
        {
          reference_id: line.id,
          quantity: line.quantity,
          unit_price: line.unit_price,
          variant_id: line.variant_id ?? undefined,
          line,
        },
        line.unit_price * line.quantity,
        { reference: 'order_line_item', internal_note: item.internal_note },
      );
    }
  });
}

export function addDraftShippingMethod(ctx: Ctx, id: string, input: AddShippingMethodInput): Promise<OrderPreview> {
  return onDraftEdit(ctx, id, async (tctx, order, change) => {
    const method = await draftMethod(tctx, order, {
      shipping_option_id: input.shipping_option_id,
      amount: input.custom_amount,
      data: input.metadata ?? undefined,
    });
    await addAction(
      tctx,
      change,
      'SHIPPING_ADD',
      { reference_id: method.id, shipping_option_id: method.shipping_option_id, name: method.name, method },
      method.amount,
      { reference: 'order_shipping_method', internal_note: input.internal_note },
    );
  });
}

/** Changes the option or amount of a shipping method this edit adds. */
export function updateDraftShippingAction(
  ctx: Ctx,
  id: string,
  actionId: string,
  input: UpdateShippingMethodInput,
): Promise<OrderPreview> {
  return onDraftEdit(ctx, id, async (tctx, order, change) => {
    const action = (await cq.listActionsOf(tctx.tx, [change.id])).find((a) => a.id === actionId);
    if (action?.action !== 'SHIPPING_ADD' || !action.details.method)
      throw errors.notFound('draft_action_not_found', { id: actionId });
    const old = action.details.method as OrderShippingMethodRow;
    const fresh = await draftMethod(tctx, order, {
      shipping_option_id: input.shipping_option_id ?? old.shipping_option_id!,
      amount: input.custom_amount === undefined ? (input.shipping_option_id ? null : old.amount) : input.custom_amount,
    });
    const method = { ...fresh, id: old.id };
    await cq.updateAction(tctx.tx, action.id, {
      details: { ...action.details, shipping_option_id: method.shipping_option_id, name: method.name, method },
      amount: method.amount,
      internal_note: input.internal_note ?? action.internal_note,
      updated_at: tctx.clock.now(),
    });
  });
}

export function removeDraftAction(ctx: Ctx, id: string, actionId: string): Promise<OrderPreview> {
  return onDraftEdit(ctx, id, async (tctx, _order, change) => {
    const action = (await cq.listActionsOf(tctx.tx, [change.id])).find((a) => a.id === actionId);
    if (!action) throw errors.notFound('draft_action_not_found', { id: actionId });
    await cq.deleteAction(tctx.tx, action.id);
  });
}

/** The draft's shipping method `methodId`; a 404 when the draft has none such. */
async function draftMethodRow(tctx: TxCtx, order: OrderRow, methodId: string): Promise<OrderShippingMethodRow> {
  const method = (await dq.listMethodsOf(tctx.tx, [order.id])).find((m) => m.id === methodId);
  if (!method) throw errors.notFound('draft_shipping_method_not_found', { id: methodId });
  return method;
}

/**
 * The removal of a method row the draft has. `method` marks it, as on SHIPPING_ADD: the row goes,
 * so the lines' totals follow, and no money is counted beside them (exchanges' SHIPPING_REMOVE is
 * such money).
 */
function removeMethod(tctx: TxCtx, change: cq.ChangeRow, method: OrderShippingMethodRow) {
  return addAction(
    tctx,
    change,
    'SHIPPING_REMOVE',
    { reference_id: method.id, method: { id: method.id } },
    -method.amount,
    { reference: 'order_shipping_method' },
  );
}

/** Removes a shipping method the draft has (applied on confirmation). */
export function removeDraftShippingMethod(ctx: Ctx, id: string, methodId: string): Promise<OrderPreview> {
  return onDraftEdit(ctx, id, async (tctx, order, change) => {
    const method = await draftMethodRow(tctx, order, methodId);
    const actions = await cq.listActionsOf(tctx.tx, [change.id]);
    if (!actions.some((a) => a.action === 'SHIPPING_REMOVE' && a.reference_id === methodId))
      await removeMethod(tctx, change, method);
  });
}

/** Replaces a shipping method the draft has by one with another option or amount. */
export function updateDraftShippingMethod(
  ctx: Ctx,
  id: string,
  methodId: string,
  input: UpdateShippingMethodInput,
): Promise<OrderPreview> {
  return onDraftEdit(ctx, id, async (tctx, order, change) => {
    const method = await draftMethodRow(tctx, order, methodId);
    const fresh = await draftMethod(tctx, order, {
      shipping_option_id: input.shipping_option_id ?? method.shipping_option_id!,
      amount:
        input.custom_amount === undefined ? (input.shipping_option_id ? null : method.amount) : input.custom_amount,
    });
    await removeMethod(tctx, change, method);
    await addAction(
      tctx,
      change,
      'SHIPPING_ADD',
      { reference_id: fresh.id, shipping_option_id: fresh.shipping_option_id, name: fresh.name, method: fresh },
      fresh.amount,
      { reference: 'order_shipping_method', internal_note: input.internal_note ?? undefined },
    );
  });
}

/** Applies the edit to the draft: lines and shipping methods, then its totals; no stock, no payment. */
export function confirmDraftEdit(ctx: Ctx, id: string): Promise<OrderPreview> {
  return onDraft(ctx, id, async (tctx, order) => {
    const change = await editOf(tctx, order);
    await confirmChange(tctx, order, change, async (actions) => {
      const now = tctx.clock.now();
      for (const a of actions) {
        if (a.action === 'ITEM_ADD') {
          const line = a.details.line as OrderLineRow;
          await q.insertLines(tctx.tx, [
            {
              ...line,
              quantity: a.details.quantity!,
              unit_price: a.details.unit_price!,
              created_at: now,
              updated_at: now,
            },
          ]);
        } else if (a.action === 'ITEM_UPDATE') {
          // A draft line set to 0 is gone (nothing of it was fulfilled: a draft fulfils nothing).
          if (a.details.quantity === 0)
            await tctx.tx.delete(orderLineItems).where(eq(orderLineItems.id, a.reference_id!));
          else
            await eq2.updateLine(tctx.tx, a.reference_id!, {
              quantity: a.details.quantity!,
              unit_price: a.details.unit_price!,
              reserved_quantity: 0,
              updated_at: now,
            });
        } else if (a.action === 'SHIPPING_REMOVE') await q.deleteMethod(tctx.tx, a.reference_id!);
        else if (a.action === 'SHIPPING_ADD') {
          const m = a.details.method as OrderShippingMethodRow;
          await q.insertMethods(tctx.tx, [{ ...m, created_at: now, updated_at: now }]);
        }
      }
    });
    // Lines, methods and codes changed: taxes and discounts follow.
    return preview(tctx, await repriceDraft(tctx, order.id));
  });
}
