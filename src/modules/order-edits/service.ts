import type { Ctx, TxCtx } from '../../platform/context.ts';
import { emit } from '../../platform/events/emit.ts';
import { errors } from '../../platform/http/errors.ts';
import { newId } from '../../platform/ids.ts';
import { findSellableVariants } from '../carts/variant-queries.ts';
import { releaseUnits } from '../inventory/order-stock.ts';
import { addAction, cancelChange, confirmChange, openChange } from '../orders/changes/engine.ts';
import * as cq from '../orders/changes/queries.ts';
import { changeViews, orderPreview, type OrderPreview } from '../orders/changes/views.ts';
import type { OrderChangeView } from '../orders/changes/schema.ts';
import * as dq from '../orders/desk-queries.ts';
import { onLockedOrder, settle } from '../orders/desk.ts';
import type { OrderLineRow, OrderRow } from '../orders/queries.ts';
import * as eq from './queries.ts';
import type { AddItemsInput, UpdateItemInput } from './schema.ts';

/**
 * Order edits (Medusa's `/admin/order-edits/{order id}`): add lines, change quantities and
 * prices (0 removes what is not fulfilled), request, then confirm into a new order version (event
 * order.edit_confirmed) or cancel. The difference lands in `pending_difference`; stock follows
 * on confirmation.
 */

async function editOf(tctx: TxCtx, order: OrderRow, statuses = ['pending', 'requested']): Promise<cq.ChangeRow> {
  const open = await cq.openChangeOf(tctx.tx, order.id);
  if (open?.change_type !== 'edit' || !statuses.includes(open.status))
    throw errors.notAllowed(`Order ${order.id} has no ${statuses.join(' or ')} order edit`);
  return open;
}

const preview = (tctx: TxCtx, order: OrderRow) => orderPreview(tctx.tx, order);

export function createEdit(
  ctx: Ctx,
  input: { order_id: string; description?: string; internal_note?: string },
): Promise<OrderChangeView> {
  return onLockedOrder(ctx, input.order_id, async (tctx, order) => {
    const change = await openChange(tctx, order, 'edit', input);
    return changeViews(order.currency_code, [change], [])[0];
  });
}

export function addItems(ctx: Ctx, orderId: string, input: AddItemsInput): Promise<OrderPreview> {
  return onLockedOrder(ctx, orderId, async (tctx, order) => {
    const change = await editOf(tctx, order, ['pending']);
    const variants = new Map(
      (
        await findSellableVariants(
          tctx.tx,
          input.items.map((i) => i.variant_id),
          order.currency_code,
          null,
        )
      ).map((v) => [v.id, v]),
    );
    const now = tctx.clock.now();
    for (const item of input.items) {
      const v = variants.get(item.variant_id);
      if (!v?.live) throw errors.notFound(`Variant with id: ${item.variant_id} was not found`);
      const unitPrice = item.unit_price ?? v.price;
      if (unitPrice === null)
        throw errors.invalid(`Variant ${v.id} has no price in ${order.currency_code}: give a unit_price`);
      const line: OrderLineRow = {
        id: newId('ordli'),
        order_id: order.id,
        variant_id: v.id,
        product_id: v.product_id,
        title: v.product_title,
        subtitle: v.product_subtitle,
        thumbnail: v.thumbnail,
        product_title: v.product_title,
        product_handle: v.product_handle,
        variant_title: v.title,
        variant_sku: v.sku,
        unit_price: unitPrice,
        quantity: item.quantity,
        // Added after placement: no tax lines or discounts are computed for it (yet); its price is as given.
        pricing: null,
        reserved_quantity: 0,
        fulfilled_quantity: 0,
        shipped_quantity: 0,
        returned_quantity: 0,
        metadata: item.metadata ?? null,
        created_at: now,
        updated_at: now,
      };
      await addAction(
        tctx,
        change,
        'ITEM_ADD',
        { reference_id: line.id, quantity: item.quantity, unit_price: unitPrice, variant_id: v.id, line },
        unitPrice * item.quantity,
        { reference: 'order_line_item', internal_note: item.internal_note },
      );
    }
    return preview(tctx, order);
  });
}

/** A new quantity (and price) for a line of the order: not below what was fulfilled. */
export function updateOriginalItem(
  ctx: Ctx,
  orderId: string,
  itemId: string,
  input: UpdateItemInput,
): Promise<OrderPreview> {
  return onLockedOrder(ctx, orderId, async (tctx, order) => {
    const change = await editOf(tctx, order, ['pending']);
    const line = (await dq.listLinesOf(tctx.tx, [order.id])).find((l) => l.id === itemId);
    if (!line) throw errors.invalid(`Item ID "${itemId}" not found.`);
    if (input.quantity < line.fulfilled_quantity)
      throw errors.invalid(
        `Item ${itemId} has already been fulfilled and quantity cannot be lower than ${line.fulfilled_quantity}.`,
      );
    // One update per line: a second replaces the first.
    for (const a of await cq.listActionsOf(tctx.tx, [change.id]))
      if (a.action === 'ITEM_UPDATE' && a.reference_id === itemId) await cq.deleteAction(tctx.tx, a.id);
    const unitPrice = input.unit_price ?? line.unit_price;
    await addAction(
      tctx,
      change,
      'ITEM_UPDATE',
      { reference_id: itemId, quantity: input.quantity, unit_price: unitPrice },
      unitPrice * input.quantity - line.unit_price * line.quantity,
      { reference: 'order_line_item', internal_note: input.internal_note },
    );
    return preview(tctx, order);
  });
}

/** Changes (or with null removes) a line this edit adds. */
export function updateAddedItem(
  ctx: Ctx,
  orderId: string,
  actionId: string,
  input: UpdateItemInput | null,
): Promise<OrderPreview> {
  return onLockedOrder(ctx, orderId, async (tctx, order) => {
    const change = await editOf(tctx, order, ['pending']);
    const action = (await cq.listActionsOf(tctx.tx, [change.id])).find((a) => a.id === actionId);
    if (!action) throw errors.notFound(`Action with id: ${actionId} was not found in the order edit`);
    if (!input || (action.action === 'ITEM_ADD' && input.quantity === 0)) {
      await cq.deleteAction(tctx.tx, action.id);
      return preview(tctx, order);
    }
    if (action.action !== 'ITEM_ADD') throw errors.invalid(`Action ${actionId} does not add an item`);
    const unitPrice = input.unit_price ?? action.details.unit_price!;
    const line = { ...(action.details.line as OrderLineRow), quantity: input.quantity, unit_price: unitPrice };
    await cq.updateAction(tctx.tx, action.id, {
      details: { ...action.details, quantity: input.quantity, unit_price: unitPrice, line },
      amount: unitPrice * input.quantity,
      internal_note: input.internal_note ?? action.internal_note,
      updated_at: tctx.clock.now(),
    });
    return preview(tctx, order);
  });
}

export function requestEdit(ctx: Ctx, orderId: string): Promise<OrderPreview> {
  return onLockedOrder(ctx, orderId, async (tctx, order) => {
    const change = await editOf(tctx, order, ['pending']);
    if (!(await cq.listActionsOf(tctx.tx, [change.id])).length)
      throw errors.invalid('The order edit has no changes to request');
    const now = tctx.clock.now();
    await cq.updateChange(tctx.tx, change.id, {
      status: 'requested',
      requested_at: now,
      requested_by: tctx.actor?.id ?? null,
      updated_at: now,
    });
    return preview(tctx, order);
  });
}

/** Moves stock for a line whose quantity goes from `before` to `after` (only lines whose stock was taken). */
async function followStock(tctx: TxCtx, line: OrderLineRow, after: number, managed: boolean): Promise<number> {
  const now = tctx.clock.now();
  const delta = after - line.quantity;
  if (!managed && line.reserved_quantity === 0) return 0;
  if (delta > 0) {
    if (!(await eq.takeStock(tctx.tx, line.variant_id, delta, now)))
      throw errors.notAllowed(`Variant ${line.variant_id} does not have the required inventory`);
    return line.reserved_quantity + delta;
  }
  const back = Math.min(-delta, line.reserved_quantity);
  // A held line gives back part of its reservation; one placed before orders reserved, its stock.
  if (back > 0 && !(await releaseUnits(tctx.tx, line, back, now)))
    await dq.restock(tctx.tx, line.variant_id, back, now);
  return line.reserved_quantity - back;
}

/**
 * Confirms the edit under the order lock: a second operator confirming the same edit at once
 * waits, then finds it confirmed and is refused, with nothing written.
 */
export function confirmEdit(ctx: Ctx, orderId: string): Promise<OrderPreview> {
  return onLockedOrder(ctx, orderId, async (tctx, order) => {
    const change = await editOf(tctx, order);
    const lines = new Map((await dq.listLinesOf(tctx.tx, [order.id])).map((l) => [l.id, l]));
    const confirmed = await confirmChange(tctx, order, change, async (actions) => {
      const ids = [
        ...new Set(actions.map((a) => (a.details.variant_id as string) ?? lines.get(a.reference_id!)?.variant_id)),
      ];
      const managed = new Map(
        (await findSellableVariants(tctx.tx, ids.filter(Boolean) as string[], order.currency_code, null)).map((v) => [
          v.id,
          v.manage_inventory,
        ]),
      );
      const now = tctx.clock.now();
      for (const a of actions) {
        if (a.action === 'ITEM_ADD') {
          const line = { ...(a.details.line as OrderLineRow), created_at: now, updated_at: now, quantity: 0 };
          const reserved = await followStock(tctx, line, a.details.quantity!, managed.get(line.variant_id) ?? false);
          await eq.insertLine(tctx.tx, {
            ...line,
            quantity: a.details.quantity!,
            unit_price: a.details.unit_price!,
            reserved_quantity: reserved,
          });
        } else if (a.action === 'ITEM_UPDATE') {
          const line = lines.get(a.reference_id!)!;
          const reserved = await followStock(tctx, line, a.details.quantity!, false);
          await eq.updateLine(tctx.tx, line.id, {
            quantity: a.details.quantity!,
            unit_price: a.details.unit_price!,
            reserved_quantity: reserved,
            updated_at: now,
          });
        }
      }
    });
    await emit(tctx, 'order.edit_confirmed', {
      id: order.id,
      order_id: order.id,
      order_change_id: confirmed.id,
      version: confirmed.version,
    });
    // Lines changed: the fulfillment status follows (an added line is not fulfilled yet).
    const after = await settle(tctx, (await dq.findOrderRow(tctx.tx, order.id))!);
    return preview(tctx, after);
  });
}

export function cancelEdit(ctx: Ctx, orderId: string): Promise<void> {
  return onLockedOrder(ctx, orderId, async (tctx, order) => {
    await cancelChange(tctx, await editOf(tctx, order));
  });
}
