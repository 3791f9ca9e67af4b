import type { TxCtx } from '../../platform/context.ts';
import * as q from './queries.ts';
import { assertCartVisible, cartNotFound, type CartAccess } from './service.ts';

/** What checkout may do with a cart, inside its own transaction. */

/**
 * Locks the cart row (a second checkout of the same cart waits here, then sees it completed) and
 * reads it whole, with the state of its lines' variants, in one statement.
 */
export async function lockCartForCheckout(tctx: TxCtx, id: string, access: CartAccess): Promise<q.CheckoutCart> {
  const cart = await q.lockCartForCheckout(tctx.tx, id);
  if (!cart) throw cartNotFound(id);
  assertCartVisible(cart, access);
  return cart;
}

export async function markCartCompleted(tctx: TxCtx, id: string, orderId: string): Promise<void> {
  const now = tctx.clock.now();
  await q.updateCartRow(tctx.tx, id, { completed_at: now, order_id: orderId, last_activity_at: now, updated_at: now });
}
