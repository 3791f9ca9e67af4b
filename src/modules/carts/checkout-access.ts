import type { TxCtx } from '../../platform/context.ts';
import { findCartPaymentCollection } from '../payments/service.ts';
import type { PaymentCollectionView } from '../payments/schema.ts';
import * as q from './queries.ts';
import { assertCartVisible, cartNotFound, type CartAccess } from './service.ts';

/** What checkout may do with a cart, inside its own transaction. */

/** Locks the cart row (a second checkout of the same cart waits here, then sees it completed); with its lines and methods. */
export async function lockCartForCheckout(tctx: TxCtx, id: string, access: CartAccess): Promise<q.CartWithCustomer> {
  const cart = await q.findCart(tctx.tx, id, true);
  if (!cart) throw cartNotFound(id);
  assertCartVisible(cart, access);
  return cart;
}

/** The cart's payment collection, if the storefront made one (read under the cart's lock). */
export function cartPaymentCollection(tctx: TxCtx, id: string): Promise<PaymentCollectionView | null> {
  return findCartPaymentCollection(tctx.tx, id);
}

export async function markCartCompleted(tctx: TxCtx, id: string, orderId: string): Promise<void> {
  const now = tctx.clock.now();
  await q.updateCartRow(tctx.tx, id, { completed_at: now, order_id: orderId, last_activity_at: now, updated_at: now });
}
