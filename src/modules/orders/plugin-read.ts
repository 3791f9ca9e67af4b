import type { Ctx } from '../../platform/context.ts';
import { AppError } from '../../platform/http/errors.ts';
import { getOrder } from './listing.ts';

/**
 * `ctx.orders.retrieve(id)` of a plugin with `orders:read`: the order as GET /admin/orders/{id}
 * shows it, copied through JSON (dates as ISO strings, nothing shared with the shop), or null.
 */
export async function orderForPlugin(ctx: Ctx, id: string): Promise<(Record<string, unknown> & { id: string }) | null> {
  try {
    return JSON.parse(JSON.stringify(await getOrder(ctx, id)));
  } catch (err) {
    if (err instanceof AppError && err.type === 'not_found') return null;
    throw err;
  }
}
