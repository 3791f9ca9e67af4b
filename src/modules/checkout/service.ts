import { inTx, type Ctx, type TxCtx } from '../../platform/context.ts';
import { emit } from '../../platform/events/emit.ts';
import { errors } from '../../platform/http/errors.ts';
import type { CartAccess } from '../carts/service.ts';
import { lockCartForCheckout, markCartCompleted } from '../carts/checkout-access.ts';
import { insufficientInventory } from '../carts/pricing.ts';
import { findOrderIdByCart, loadOrderView, orderView, placeOrder } from '../orders/service.ts';
import type { OrderView } from '../orders/schema.ts';
import { authorizeCheckoutPayment } from '../payments/checkout.ts';
import { takeStock } from './inventory-queries.ts';
import { pgCode, withTxRetry } from './retry.ts';

/**
 * `POST /store/carts/{id}/complete`. Everything happens in one transaction, so a failure leaves
 * no order, payment or stock change behind. The cart row lock serialises completions of one cart:
 * the second waits, then finds the cart completed and answers the same order. The unique
 * `orders.cart_id` is the backstop should anything slip past the lock.
 */
export async function completeCart(ctx: Ctx, cartId: string, access: CartAccess): Promise<OrderView> {
  try {
    return await withTxRetry(() => inTx(ctx, (tctx) => complete(tctx, cartId, access)));
  } catch (err) {
    if (pgCode(err) !== '23505') throw err;
    const orderId = await findOrderIdByCart(ctx, cartId);
    if (!orderId) throw err;
    return (await loadOrderView(ctx, orderId))!;
  }
}

async function complete(tctx: TxCtx, cartId: string, access: CartAccess): Promise<OrderView> {
  const cart = await lockCartForCheckout(tctx, cartId, access);
  if (cart.completed_at) {
    const orderId = cart.order_id ?? (await findOrderIdByCart(tctx, cartId));
    return (await loadOrderView(tctx, orderId!))!;
  }
  const { lines, methods } = cart;
  if (!lines.length) throw errors.invalid('Cannot complete a cart with no items');
  if (!cart.email) throw errors.invalid('Cannot complete a cart without an email: set one with POST /store/carts/{id}');

  const states = cart.variant_states;
  const gone = lines.map((l) => l.variant_id).filter((id) => !states.find((s) => s.id === id)?.live);
  if (gone.length) throw errors.invalid(`Variants ${[...new Set(gone)].join(', ')} do not exist or belong to a product that is not published`);
  const managed = new Set(states.filter((s) => s.manage_inventory).map((s) => s.id));

  const placed = await placeOrder(tctx, { ...cart, email: cart.email }, lines, methods, managed);
  const { order } = placed;
  const payments = await authorizeCheckoutPayment(tctx, {
    cartId,
    orderId: order.id,
    amount: order.total,
    currency: order.currency_code,
    collection: cart.payment_collection,
  });
  await markCartCompleted(tctx, cartId, order.id);
  const view = orderView(order, placed.lines, placed.methods, [payments]);
  await emit(tctx, 'order.placed', view);

  // Stock last, in variant id order: row locks are then held only until the commit, and two
  // checkouts always lock shared variants in the same order (no deadlock). Any shortfall throws
  // and the whole transaction, order included, rolls back.
  const wanted = new Map<string, number>();
  for (const l of lines) if (managed.has(l.variant_id)) wanted.set(l.variant_id, (wanted.get(l.variant_id) ?? 0) + l.quantity);
  for (const variantId of [...wanted.keys()].sort()) {
    if (!(await takeStock(tctx.tx, variantId, wanted.get(variantId)!, tctx.clock.now()))) throw insufficientInventory();
  }
  return view;
}
