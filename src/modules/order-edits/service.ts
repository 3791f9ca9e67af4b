import type { Ctx, TxCtx } from '../../platform/context.ts';
import { emit } from '../../platform/events/emit.ts';
import { errors } from '../../platform/http/errors.ts';
import { newId } from '../../platform/ids.ts';
import { variantCopy } from '../carts/pricing.ts';
import { findSellableVariants } from '../carts/variant-queries.ts';
import { releaseUnits } from '../inventory/order-stock.ts';
import { addAction, cancelChange, confirmChange, openChange } from '../orders/changes/engine.ts';
import * as cq from '../orders/changes/queries.ts';
import { changeViews, orderPreview, type OrderPreview } from '../orders/changes/views.ts';
import type { OrderChangeView } from '../orders/changes/schema.ts';
import * as dq from '../orders/desk-queries.ts';
import { onLockedOrder, settle, type LockScope } from '../orders/desk.ts';
import { followDifference } from '../orders/difference-collections.ts';
import type { OrderLineRow, OrderRow } from '../orders/queries.ts';
import { unitsValue, unmovedQuantities } from '../orders/line-value.ts';
import { priceEditLines } from './line-pricing.ts';
import * as eq from './queries.ts';
import type { AddItemsInput, UpdateItemInput } from './schema.ts';

/**
 * Order edits (Medusa's `/admin/order-edits/{order id}`): add lines, change quantities and
 * prices (0 removes what is not fulfilled), request, then confirm into a new order version (event
 * order.edit_confirmed) or cancel. The difference lands in `pending_difference`; stock follows
 * on confirmation.
 */

export async function editOf(tctx: TxCtx, order: OrderRow, statuses = ['pending', 'requested']): Promise<cq.ChangeRow> {
  const open = await cq.openChangeOf(tctx.tx, order.id);
  if (open?.change_type !== 'edit' || !statuses.includes(open.status))
    throw errors.notAllowed('order_change_not_active', {
      detail: `Order ${order.id} has no ${statuses.join(' or ')} order edit`,
    });
  return open;
}

const preview = (tctx: TxCtx, order: OrderRow) => orderPreview(tctx.tx, order);

/**
 * Runs `step` on the order's pending edit under the order lock (a draft's with the draft scope)
 * and answers with the order's preview: every change to an edit's actions goes through here.
 */
function onPendingEdit(
  ctx: Ctx,
  orderId: string,
  scope: LockScope,
  step: (tctx: TxCtx, order: OrderRow, change: cq.ChangeRow) => Promise<void>,
): Promise<OrderPreview> {
  return onLockedOrder(
    ctx,
    orderId,
    async (tctx, order) => {
      await step(tctx, order, await editOf(tctx, order, ['pending']));
      return preview(tctx, order);
    },
    scope,
  );
}

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
  return onPendingEdit(ctx, orderId, {}, (tctx, order, change) => addLineActions(tctx, change, order, input));
}

/**
 * ITEM_ADD actions of `change`: new lines of the variants at their price in the order's currency,
 * or the given `unit_price`, or 0 when `free` (a claim's replacements).
 */
export async function addLineActions(
  tctx: TxCtx,
  change: cq.ChangeRow,
  order: OrderRow,
  input: AddItemsInput,
  opts: { free?: boolean } = {},
): Promise<void> {
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
  const added = input.items.map((item) => {
    const v = variants.get(item.variant_id);
    if (!v?.live) throw errors.notFound('variant_not_found', { id: item.variant_id });
    const unitPrice = opts.free ? 0 : (item.unit_price ?? v.price);
    if (unitPrice === null) throw errors.invalid('order_variant_unpriced', { id: v.id, currency: order.currency_code });
    return { item, v, unitPrice, id: newId('ordli') };
  });
  // Tax lines and the order's discounts for the new lines, as a cart would have them; a line sent
  // free (a claim's replacement) carries none.
  const pricing = opts.free
    ? added.map(() => null)
    : await priceEditLines(
        tctx,
        order,
        added.map((a) => ({
          id: a.id,
          product_id: a.v.product_id,
          variant_id: a.v.id,
          unit_price: a.unitPrice,
          quantity: a.item.quantity,
        })),
      );
  for (const [i, { item, v, unitPrice, id }] of added.entries()) {
    const line: OrderLineRow = {
      id,
      order_id: order.id,
      ...variantCopy(v),
      unit_price: unitPrice,
      quantity: item.quantity,
      pricing: pricing[i],
      ...unmovedQuantities,
      metadata: item.metadata ?? null,
      created_at: now,
      updated_at: now,
    };
    await addAction(
      tctx,
      change,
      'ITEM_ADD',
      { reference_id: line.id, quantity: item.quantity, unit_price: unitPrice, variant_id: v.id, line },
      // What the line will charge, its tax and discounts counted (what the order's total grows by).
      unitsValue(line, item.quantity),
      { reference: 'order_line_item', internal_note: item.internal_note },
    );
  }
}

/**
 * A line's tax lines and discounts at a new price and quantity. A draft's lines are all priced
 * again when its edit is confirmed (draft-orders/pricing.ts), and a free line stays bare.
 */
async function pricingAt(
  tctx: TxCtx,
  order: OrderRow,
  line: OrderLineRow,
  unitPrice: number,
  quantity: number,
  scope: LockScope,
): Promise<OrderLineRow['pricing']> {
  if (scope.draft || !line.pricing || !line.product_id || !line.variant_id) return line.pricing;
  const [pricing] = await priceEditLines(tctx, order, [
    { id: line.id, product_id: line.product_id, variant_id: line.variant_id, unit_price: unitPrice, quantity },
  ]);
  return pricing;
}

/** A new quantity (and price) for a line of the order: not below what was fulfilled. */
export function updateOriginalItem(
  ctx: Ctx,
  orderId: string,
  itemId: string,
  input: UpdateItemInput,
  scope: LockScope = {},
): Promise<OrderPreview> {
  return onPendingEdit(ctx, orderId, scope, async (tctx, order, change) => {
    const line = (await dq.listLinesOf(tctx.tx, [order.id])).find((l) => l.id === itemId);
    if (!line) throw errors.invalid('order_item_not_found', { id: itemId });
    if (input.quantity < line.fulfilled_quantity)
      throw errors.invalid('order_item_below_fulfilled', { id: itemId, fulfilled: line.fulfilled_quantity });
    // One update per line: a second replaces the first.
    for (const a of await cq.listActionsOf(tctx.tx, [change.id]))
      if (a.action === 'ITEM_UPDATE' && a.reference_id === itemId) await cq.deleteAction(tctx.tx, a.id);
    const unitPrice = input.unit_price ?? line.unit_price;
    // A placed line is priced again at its new quantity and price (its discounts follow); a
    // draft's lines are all priced again when its edit is confirmed (draft-orders/pricing.ts).
    const pricing =
      input.quantity === 0 ? line.pricing : await pricingAt(tctx, order, line, unitPrice, input.quantity, scope);
    const after = { ...line, quantity: input.quantity, unit_price: unitPrice, pricing };
    await addAction(
      tctx,
      change,
      'ITEM_UPDATE',
      { reference_id: itemId, quantity: input.quantity, unit_price: unitPrice, pricing },
      unitsValue(after, input.quantity) - unitsValue(line, line.quantity),
      { reference: 'order_line_item', internal_note: input.internal_note },
    );
  });
}

/** Changes (or with null removes) a line this edit adds. */
export function updateAddedItem(
  ctx: Ctx,
  orderId: string,
  actionId: string,
  input: UpdateItemInput | null,
  scope: LockScope = {},
): Promise<OrderPreview> {
  return onPendingEdit(ctx, orderId, scope, async (tctx, order, change) => {
    const action = (await cq.listActionsOf(tctx.tx, [change.id])).find((a) => a.id === actionId);
    if (!action) throw errors.notFound('order_edit_action_not_found', { id: actionId });
    if (!input || (action.action === 'ITEM_ADD' && input.quantity === 0)) {
      await cq.deleteAction(tctx.tx, action.id);
      return;
    }
    if (action.action !== 'ITEM_ADD') throw errors.invalid('order_edit_action_not_item_add', { id: actionId });
    const unitPrice = input.unit_price ?? action.details.unit_price!;
    const added = action.details.line as OrderLineRow;
    // Priced again at its new quantity and price, as it was when added (a free line stays bare).
    const pricing = await pricingAt(tctx, order, added, unitPrice, input.quantity, scope);
    const line = { ...added, quantity: input.quantity, unit_price: unitPrice, pricing };
    await cq.updateAction(tctx.tx, action.id, {
      details: { ...action.details, quantity: input.quantity, unit_price: unitPrice, line },
      amount: unitsValue(line, input.quantity),
      internal_note: input.internal_note ?? action.internal_note,
      updated_at: tctx.clock.now(),
    });
  });
}

export function requestEdit(ctx: Ctx, orderId: string, scope: LockScope = {}): Promise<OrderPreview> {
  return onPendingEdit(ctx, orderId, scope, async (tctx, _order, change) => {
    if (!(await cq.listActionsOf(tctx.tx, [change.id])).length) throw errors.invalid('order_edit_empty');
    const now = tctx.clock.now();
    await cq.updateChange(tctx.tx, change.id, {
      status: 'requested',
      requested_at: now,
      requested_by: tctx.actor?.id ?? null,
      updated_at: now,
    });
  });
}

/** Moves stock for a line whose quantity goes from `before` to `after` (only lines whose stock was taken). */
async function followStock(tctx: TxCtx, line: OrderLineRow, after: number, managed: boolean): Promise<number> {
  const now = tctx.clock.now();
  const delta = after - line.quantity;
  if (!line.variant_id || (!managed && line.reserved_quantity === 0)) return 0;
  if (delta > 0) {
    if (!(await eq.takeStock(tctx.tx, line.variant_id, delta, now))) throw errors.notAllowed('insufficient_inventory');
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
    const confirmed = await confirmChange(tctx, order, change, (actions) => applyLineActions(tctx, order, actions));
    await emit(tctx, 'order.edit_confirmed', {
      id: order.id,
      order_id: order.id,
      order_change_id: confirmed.id,
      version: confirmed.version,
    });
    // Lines changed: the fulfillment status follows (an added line is not fulfilled yet).
    const after = await settle(tctx, (await dq.findOrderRow(tctx.tx, order.id))!);
    await followDifference(tctx, after);
    return preview(tctx, after);
  });
}

/**
 * Applies ITEM_ADD and ITEM_UPDATE actions of a change being confirmed: lines added (their stock
 * taken and held for them at once) or changed (stock following the quantity).
 */
export async function applyLineActions(tctx: TxCtx, order: OrderRow, actions: cq.ActionRow[]): Promise<void> {
  const lines = new Map((await dq.listLinesOf(tctx.tx, [order.id])).map((l) => [l.id, l]));
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
      const reserved = await followStock(
        tctx,
        line,
        a.details.quantity!,
        (line.variant_id !== null && managed.get(line.variant_id)) || false,
      );
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
        // Repriced at the update (absent on a draft's or a canceled swap's: the line keeps its own).
        pricing: a.details.pricing === undefined ? line.pricing : (a.details.pricing as OrderLineRow['pricing']),
        updated_at: now,
      });
    }
  }
}

export function cancelEdit(ctx: Ctx, orderId: string, scope: LockScope = {}): Promise<void> {
  return onLockedOrder(
    ctx,
    orderId,
    async (tctx, order) => {
      await cancelChange(tctx, await editOf(tctx, order));
    },
    scope,
  );
}
