import type { SQL } from 'drizzle-orm';
import type { TxCtx } from '../../platform/context.ts';
import { asStoredJson } from '../../platform/db/json-rows.ts';
import { errors } from '../../platform/http/errors.ts';
import { assertInStock, mergeItems, sellableOf, sellableVariants } from './pricing.ts';
import * as q from './queries.ts';
import { MAX_CART_LINES, type LineItemInputT } from './schema.ts';
import type { SellableVariant } from './variant-queries.ts';

/**
 * Changes of a cart's lines, on a cart locked for the change. Each answers the lines as they will
 * be (what reading them back would answer, in id order) and the writes that make them so: checkout
 * runs those in one statement with the cart's touch and its event, and shows the cart without
 * reading it back.
 */
export interface LineEdit {
  lines: q.LineRow[];
  writes: SQL[];
}

const lineNotFound = (id: string) => errors.notFound('line_item_not_found', { id });
const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * Adds a line, or adds to the quantity of the line with the same variant and metadata.
 * `variants`: the item's variant as read with the cart (sellableVariantsOfCart).
 */
export function addLine(cart: q.LockedCart, item: LineItemInputT, variants: SellableVariant[], now: Date): LineEdit {
  const sellable = sellableOf([item.variant_id], variants);
  const { inserts, updates } = mergeItems(cart.id, cart.lines, [item], sellable, now);
  if (cart.lines.length + inserts.length > MAX_CART_LINES)
    throw errors.invalid('cart_too_many_lines', { max: MAX_CART_LINES });
  const added = inserts.map((l) => ({ ...l, metadata: asStoredJson(l.metadata ?? null) }) as q.LineRow);
  const quantities = new Map(updates.map((u) => [u.id, u.quantity]));
  const lines = cart.lines.map((l) =>
    quantities.has(l.id) ? { ...l, quantity: quantities.get(l.id)!, updated_at: now } : l,
  );
  const writes = [];
  if (added.length) writes.push(q.lineInserts(added));
  if (updates.length) writes.push(q.lineQuantityUpdates(cart.id, updates, now));
  return { lines: [...lines, ...added].sort(byId), writes };
}

/** Sets a line's quantity (0 removes it) and, when given, its metadata. */
export async function setLineQuantity(
  tctx: TxCtx,
  cart: q.LockedCart,
  lineId: string,
  input: { quantity: number; metadata?: Record<string, unknown> | null },
): Promise<LineEdit> {
  const lines = cart.lines;
  const line = lines.find((l) => l.id === lineId);
  if (!line) throw lineNotFound(lineId);
  if (input.quantity === 0) return removeLine(cart, lineId);
  const variant = (await sellableVariants(tctx, [line.variant_id], cart)).get(line.variant_id)!;
  const others = lines
    .filter((l) => l.variant_id === line.variant_id && l.id !== lineId)
    .reduce((s, l) => s + l.quantity, 0);
  assertInStock(variant, others + input.quantity);
  const now = tctx.clock.now();
  const changed = {
    ...line,
    quantity: input.quantity,
    updated_at: now,
    ...(input.metadata !== undefined ? { metadata: asStoredJson(input.metadata) } : {}),
  };
  return {
    lines: lines.map((l) => (l.id === lineId ? changed : l)),
    writes: [q.lineUpdate(cart.id, lineId, input, now)],
  };
}

export function removeLine(cart: q.LockedCart, lineId: string): LineEdit {
  if (!cart.lines.some((l) => l.id === lineId)) throw lineNotFound(lineId);
  return { lines: cart.lines.filter((l) => l.id !== lineId), writes: [q.lineDelete(cart.id, lineId)] };
}
