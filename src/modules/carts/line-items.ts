import type { Ctx } from '../../platform/context.ts';
import { errors } from '../../platform/http/errors.ts';
import { assertInStock, mergeItems, sellableVariants } from './pricing.ts';
import * as q from './queries.ts';
import type { CartView, LineItemInputT } from './schema.ts';
import { mutateCart, type CartAccess } from './service.ts';

const lineNotFound = (id: string) => errors.notFound(`Line item with id: ${id} was not found`);

/** Adds a line, or adds to the quantity of the line with the same variant and metadata. */
export async function addLineItem(ctx: Ctx, cartId: string, item: LineItemInputT, access: CartAccess): Promise<CartView> {
  return mutateCart(ctx, cartId, access, async (tctx, cart) => {
    const variants = await sellableVariants(tctx, [item.variant_id], cart);
    const { inserts, updates } = mergeItems(cart.id, cart.lines, [item], variants, tctx.clock.now());
    await q.insertLines(tctx.tx, inserts);
    for (const u of updates) await q.updateLine(tctx.tx, cart.id, u.id, { quantity: u.quantity, updated_at: tctx.clock.now() });
  });
}

/** Sets a line's quantity (0 removes it) and, when given, its metadata. */
export async function updateLineItem(
  ctx: Ctx,
  cartId: string,
  lineId: string,
  input: { quantity: number; metadata?: Record<string, unknown> | null },
  access: CartAccess,
): Promise<CartView> {
  return mutateCart(ctx, cartId, access, async (tctx, cart) => {
    const lines = cart.lines;
    const line = lines.find((l) => l.id === lineId);
    if (!line) throw lineNotFound(lineId);
    if (input.quantity === 0) return void (await q.deleteLine(tctx.tx, cart.id, lineId));
    const variant = (await sellableVariants(tctx, [line.variant_id], cart)).get(line.variant_id)!;
    const others = lines.filter((l) => l.variant_id === line.variant_id && l.id !== lineId).reduce((s, l) => s + l.quantity, 0);
    assertInStock(variant, others + input.quantity);
    const patch = { quantity: input.quantity, updated_at: tctx.clock.now(), ...(input.metadata !== undefined ? { metadata: input.metadata } : {}) };
    await q.updateLine(tctx.tx, cart.id, lineId, patch);
  });
}

export async function deleteLineItem(ctx: Ctx, cartId: string, lineId: string, access: CartAccess) {
  const parent = await mutateCart(ctx, cartId, access, async (tctx, cart) => {
    if (!cart.lines.some((l) => l.id === lineId)) throw lineNotFound(lineId);
    await q.deleteLine(tctx.tx, cart.id, lineId);
  });
  return { id: lineId, object: 'line-item' as const, deleted: true as const, parent };
}
