import { inTx, type Ctx, type TxCtx } from '../../platform/context.ts';
import { emit } from '../../platform/events/emit.ts';
import type { AppError } from '../../platform/http/errors.ts';
import type { StoreCustomer } from '../customers/customer-auth.ts';
import { addLine, removeLine, setLineQuantity } from '../carts/line-items.ts';
import type { CreateCartInput, LineItemInputT, UpdateCartInput } from '../carts/schema.ts';
import {
  assertCartVisible,
  cartNotFound,
  changeCartFields,
  insertCart,
  lockOpenCart,
  salesChannelFor,
  touchCart,
  type CartAccess,
  type CartChange,
  type LockedCart,
} from '../carts/service.ts';
import { chooseShippingMethod } from '../carts/shipping-methods.ts';
import { syncCollectionAmount } from '../payments/collections.ts';
import { findCart, updateAndReadCart, type FullCart } from './cart-read.ts';
import type { CartView } from './cart-schema.ts';
import { buildCartView } from './cart-view.ts';

/**
 * The store's cart: created, read and changed here, so that every change keeps the cart's
 * payment collection in step with its total and emits its event with the whole new cart. The
 * rules of each change are the carts module's; this file runs them in one transaction.
 */

/** Ends every cart write: the cart's view, its payment collection in step with the total, and the event. */
async function finish(tctx: TxCtx, cart: FullCart, event: 'cart.created' | 'cart.updated'): Promise<CartView> {
  const view = buildCartView(cart);
  if (view.payment_collection)
    view.payment_collection = await syncCollectionAmount(tctx, view.payment_collection, view.total, view.currency_code);
  await emit(tctx, event, view);
  return view;
}

export async function createCart(
  ctx: Ctx,
  input: CreateCartInput,
  customer: StoreCustomer | null,
  channelIds: string[],
): Promise<CartView> {
  const salesChannelId = salesChannelFor(input.sales_channel_id, channelIds);
  return inTx(ctx, async (tctx) => {
    const cart = await insertCart(tctx, input, customer, salesChannelId);
    return finish(tctx, { ...cart, payment_collection: null }, 'cart.created');
  });
}

/** The cart if this shopper may see it (read in one statement with everything its view shows). */
export async function findVisibleCart(ctx: Ctx, id: string, access: CartAccess): Promise<FullCart> {
  const cart = await findCart(ctx.db, id);
  if (!cart) throw cartNotFound(id);
  assertCartVisible(cart, access);
  return cart;
}

export async function getCart(ctx: Ctx, id: string, access: CartAccess): Promise<CartView> {
  return buildCartView(await findVisibleCart(ctx, id, access));
}

/**
 * Runs one change of an open cart in a transaction: lock the cart, check who asks and that it is
 * not completed, apply `change`, move `last_activity_at`, read the cart back, keep its payment
 * collection in step, emit `cart.updated` with the new view.
 */
export async function mutateCart(
  ctx: Ctx,
  id: string,
  access: CartAccess,
  change: (tctx: TxCtx, cart: LockedCart) => Promise<CartChange | void>,
  notFound?: AppError,
): Promise<CartView> {
  return inTx(ctx, async (tctx) => {
    const cart = await lockOpenCart(tctx, id, access, notFound);
    const patch = (await change(tctx, cart)) ?? {};
    return finish(tctx, await updateAndReadCart(tctx.tx, touchCart(tctx, id, patch)), 'cart.updated');
  });
}

export function updateCart(ctx: Ctx, id: string, input: UpdateCartInput, access: CartAccess): Promise<CartView> {
  return mutateCart(ctx, id, access, (tctx, cart) => changeCartFields(tctx, cart, input, access));
}

/** `POST /store/carts/{id}/customer`: binds the cart to the signed-in customer (and their email). */
export function setCartCustomer(
  ctx: Ctx,
  id: string,
  customer: StoreCustomer,
  channelIds: string[],
): Promise<CartView> {
  return mutateCart(ctx, id, { customerId: customer.id, channelIds }, async () => ({
    customer_id: customer.id,
    email: customer.email,
  }));
}

export function addLineItem(ctx: Ctx, id: string, item: LineItemInputT, access: CartAccess): Promise<CartView> {
  return mutateCart(ctx, id, access, (tctx, cart) => addLine(tctx, cart, item));
}

export function updateLineItem(
  ctx: Ctx,
  id: string,
  lineId: string,
  input: { quantity: number; metadata?: Record<string, unknown> | null },
  access: CartAccess,
): Promise<CartView> {
  return mutateCart(ctx, id, access, (tctx, cart) => setLineQuantity(tctx, cart, lineId, input));
}

export async function deleteLineItem(ctx: Ctx, id: string, lineId: string, access: CartAccess) {
  const parent = await mutateCart(ctx, id, access, (tctx, cart) => removeLine(tctx, cart, lineId));
  return { id: lineId, object: 'line-item' as const, deleted: true as const, parent };
}

export function addShippingMethod(
  ctx: Ctx,
  id: string,
  input: { option_id: string; data?: Record<string, unknown> },
  access: CartAccess,
): Promise<CartView> {
  return mutateCart(ctx, id, access, (tctx, cart) => chooseShippingMethod(tctx, cart, input));
}
