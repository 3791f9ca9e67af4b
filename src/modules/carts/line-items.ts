import type { TxCtx } from '../../platform/context.ts';
import { errors } from '../../platform/http/errors.ts';
import { assertInStock, mergeItems, sellableVariants } from './pricing.ts';
import * as q from './queries.ts';
import type { LineItemInputT } from './schema.ts';

/** Changes of a cart's lines, on a cart locked by lockOpenCart (service.ts). */

const lineNotFound = (id: string) => errors.notFound(`Line item with id: ${id} was not found`);

/** Adds a line, or adds to the quantity of the line with the same variant and metadata. */
export async function addLine(tctx: TxCtx, cart: q.LockedCart, item: LineItemInputT): Promise<void> {
  const variants = await sellableVariants(tctx, [item.variant_id], cart);
  const { inserts, updates } = mergeItems(cart.id, cart.lines, [item], variants, tctx.clock.now());
  await q.insertLines(tctx.tx, inserts);
  for (const u of updates)
    await q.updateLine(tctx.tx, cart.id, u.id, { quantity: u.quantity, updated_at: tctx.clock.now() });
}

/** Sets a line's quantity (0 removes it) and, when given, its metadata. */
export async function setLineQuantity(
  tctx: TxCtx,
  cart: q.LockedCart,
  lineId: string,
  input: { quantity: number; metadata?: Record<string, unknown> | null },
): Promise<void> {
  const lines = cart.lines;
  const line = lines.find((l) => l.id === lineId);
  if (!line) throw lineNotFound(lineId);
  if (input.quantity === 0) return void (await q.deleteLine(tctx.tx, cart.id, lineId));
  const variant = (await sellableVariants(tctx, [line.variant_id], cart)).get(line.variant_id)!;
  const others = lines
    .filter((l) => l.variant_id === line.variant_id && l.id !== lineId)
    .reduce((s, l) => s + l.quantity, 0);
  assertInStock(variant, others + input.quantity);
  const patch = {
    quantity: input.quantity,
    updated_at: tctx.clock.now(),
    ...(input.metadata !== undefined ? { metadata: input.metadata } : {}),
  };
  await q.updateLine(tctx.tx, cart.id, lineId, patch);
}

export async function removeLine(tctx: TxCtx, cart: q.LockedCart, lineId: string): Promise<void> {
  if (!cart.lines.some((l) => l.id === lineId)) throw lineNotFound(lineId);
  await q.deleteLine(tctx.tx, cart.id, lineId);
}
