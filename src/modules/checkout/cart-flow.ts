import type { SQL } from 'drizzle-orm';
import { offeredOptions } from './offered-options.ts';
import { inTx, type Ctx, type TxCtx } from '../../platform/context.ts';
import { writeTogether } from '../../platform/db/one-statement.ts';
import { eventWrite } from '../../platform/events/emit.ts';
import type { AppError } from '../../platform/http/errors.ts';
import type { StoreCustomer } from '../customers/customer-auth.ts';
import { addLine, removeLine, setLineQuantity, type LineEdit } from '../carts/line-items.ts';
import { priceAddition, priceQuantityChange, repriceForCustomer } from '../carts/line-prices.ts';
import { cartTouch, methodAmountUpdate } from '../carts/queries.ts';
import type { CreateCartInput, LineItemInputT, UpdateCartInput } from '../carts/schema.ts';
import {
  assertCartVisible,
  cartCompleted,
  cartNotFound,
  changeCartFields,
  lockOpenCart,
  newCart,
  salesChannelFor,
  touchCart,
  type CartAccess,
  type CartChange,
  type LockedCart,
} from '../carts/service.ts';
import { collectionInStep } from '../payments/collections.ts';
import { findCart, lockCartForEdit, updateAndReadCart, type EditableCart, type FullCart } from './cart-read.ts';
import type { CartView } from './cart-schema.ts';
import { cartViewOf, chargedTotal } from './cart-view.ts';
import { askingTaxesFirst } from '../cart-pricing/tax-answers.ts';
import { newCartFacts } from '../cart-pricing/facts.ts';
import { applyCodes, assertCodesApply, usablePromotionIds } from './cart-promotions.ts';
import { newCartPromotionsWrite } from '../promotions/queries.ts';

/**
 * The store's cart: created, read and changed here, so that every change keeps the cart's
 * payment collection in step with its total and emits its event with the whole new cart. The
 * rules of each change are the carts module's; this file runs them in one transaction, and the
 * writes that end a change (the change's own, the collection's, the event) in one statement.
 */

/**
 * Ends every cart write: the cart's view, its payment collection in step with the total, and the
 * event, written with `writes` (the change's own) in one statement.
 */
async function finish(
  tctx: Ctx & Partial<TxCtx>,
  cart: FullCart,
  event: 'cart.created' | 'cart.updated',
  writes: SQL[] = [],
): Promise<CartView> {
  const view = await cartViewOf(tctx, cart);
  if (view.payment_collection) {
    const synced = collectionInStep(tctx, view.payment_collection, chargedTotal(view), view.currency_code);
    view.payment_collection = synced.collection;
    writes = [...writes, ...synced.writes];
  }
  await writeTogether(tctx.tx ?? tctx.db, [...writes, eventWrite(tctx, event, view)]);
  return view;
}

/**
 * A new cart: reads (region, variants, the codes of `promo_codes`), then the cart, its lines, its
 * codes and its event in one statement, which is atomic without a transaction around it. As
 * Medusa's create-cart workflow, the codes apply with the cart; as on `POST /store/carts/{id}`, a
 * code that does not exist, cannot be used now or does not discount the new cart is a 400 naming
 * it, and then nothing is written.
 */
export async function createCart(
  ctx: Ctx,
  input: CreateCartInput,
  customer: StoreCustomer | null,
  channelIds: string[],
): Promise<CartView> {
  const { promo_codes: codes = [], ...fields } = input;
  const salesChannelId = salesChannelFor(fields.sales_channel_id, channelIds);
  const { cart, writes } = await newCart(ctx, fields, customer, salesChannelId);
  const now = ctx.clock.now();
  const codeIds = codes.length ? await usablePromotionIds(ctx.db, codes, now) : [];
  const facts = await newCartFacts(
    ctx.db,
    cart,
    cart.lines.map((l) => l.product_id),
    codeIds,
  );
  const created: FullCart = { ...cart, payment_collection: null, pricing_facts: facts };
  assertCodesApply(created, codes, now);
  const codeWrites = codeIds.length ? [newCartPromotionsWrite(cart.id, codeIds, now)] : [];
  return finish(ctx, created, 'cart.created', [...writes, ...codeWrites]);
}

/** The cart if this shopper may see it (read in one statement with everything its view shows). */
export async function findVisibleCart(ctx: Ctx, id: string, access: CartAccess): Promise<FullCart> {
  const cart = await findCart(ctx.db, id);
  if (!cart) throw cartNotFound(id);
  assertCartVisible(cart, access);
  return cart;
}

export async function getCart(ctx: Ctx, id: string, access: CartAccess): Promise<CartView> {
  return cartViewOf(ctx, await findVisibleCart(ctx, id, access));
}

/**
 * Runs one change of an open cart in a transaction: lock the cart, check who asks and that it is
 * not completed, apply `change`, move `last_activity_at`, read the cart back, keep its payment
 * collection in step, emit `cart.updated` with the new view. (Changes of lines take editLines.)
 */
export async function mutateCart(
  ctx: Ctx,
  id: string,
  access: CartAccess,
  change: (tctx: TxCtx, cart: LockedCart) => Promise<CartChange | void>,
  notFound?: AppError,
  check?: (cart: FullCart, now: Date) => void,
): Promise<CartView> {
  return askingTaxesFirst(ctx, (actx) =>
    inTx(actx, async (tctx) => {
      const cart = await lockOpenCart(tctx, id, access, notFound);
      const patch = (await change(tctx, cart)) ?? {};
      const after = await updateAndReadCart(tctx.tx, touchCart(tctx, id, patch));
      check?.(after, tctx.clock.now());
      return finish(tctx, after, 'cart.updated');
    }),
  );
}

/** `POST /store/carts/{id}`: its fields, and `promo_codes` (the codes replace those applied). */
export function updateCart(ctx: Ctx, id: string, input: UpdateCartInput, access: CartAccess): Promise<CartView> {
  const { promo_codes: codes, ...fields } = input;
  let mustApply: string[] = [];
  return mutateCart(
    ctx,
    id,
    access,
    async (tctx, cart) => {
      if (codes) mustApply = await applyCodes(tctx, id, codes, 'replace');
      return changeCartFields(tctx, cart, fields, access);
    },
    undefined,
    (after, now) => assertCodesApply(after, mustApply, now),
  );
}

/**
 * `POST` / `DELETE /store/carts/{id}/promotions`: codes added to or removed from those applied.
 * An empty list posted removes every code, as Medusa's route replaces the codes then.
 */
export function changeCartCodes(
  ctx: Ctx,
  id: string,
  codes: string[],
  asked: 'add' | 'remove',
  access: CartAccess,
): Promise<CartView> {
  const action = asked === 'add' && !codes.length ? 'replace' : asked;
  let mustApply: string[] = [];
  return mutateCart(
    ctx,
    id,
    access,
    async (tctx) => {
      mustApply = await applyCodes(tctx, id, codes, action);
    },
    undefined,
    (after, now) => assertCodesApply(after, mustApply, now),
  );
}

/** `POST /store/carts/{id}/taxes`: taxes apply from now on, even in a region without automatic taxes. */
export function calculateCartTaxes(ctx: Ctx, id: string, access: CartAccess): Promise<CartView> {
  return mutateCart(ctx, id, access, async (tctx) => ({ tax_requested_at: tctx.clock.now() }));
}

/** `POST /store/carts/{id}/customer`: binds the cart to the signed-in customer (and their email). */
export function setCartCustomer(
  ctx: Ctx,
  id: string,
  customer: StoreCustomer,
  channelIds: string[],
): Promise<CartView> {
  return mutateCart(ctx, id, { customerId: customer.id, channelIds }, async (tctx, cart) => {
    if (cart.customer_id !== customer.id) await repriceForCustomer(tctx, cart, customer.id);
    return { customer_id: customer.id, email: customer.email };
  });
}

/**
 * A change of an open cart's lines, in a transaction of three statements: lock and read the cart
 * whole with the variants the change sells (`variantIds`); then the change's writes, the cart's
 * touch, its collection in step and `cart.updated`, in one statement. The view is built from what
 * was read and what the change says the lines now are, so nothing is read back.
 */
/**
 * New lines change the item total, and with it a flat option's price when it has conditions
 * ("free over 50 EUR"): the cart's methods follow, as Medusa refreshes them. A method whose
 * option is no longer offered keeps its amount; completing the cart refuses it.
 */
async function repriceMethods(tctx: TxCtx, cart: FullCart): Promise<{ cart: FullCart; writes: SQL[] }> {
  if (!cart.methods.length) return { cart, writes: [] };
  const view = await cartViewOf(tctx, cart);
  const offered = new Map((await offeredOptions(tctx.tx, cart, view.item_total)).map((o) => [o.row.id, o.amount]));
  const writes: SQL[] = [];
  const methods = cart.methods.map((m) => {
    const amount = offered.get(m.shipping_option_id);
    if (amount === undefined || amount === null || amount === m.amount) return m;
    writes.push(methodAmountUpdate(m.id, amount));
    return { ...m, amount };
  });
  return { cart: { ...cart, methods }, writes };
}

function editLines(
  ctx: Ctx,
  id: string,
  access: CartAccess,
  variantIds: string[],
  edit: (tctx: TxCtx, cart: EditableCart) => LineEdit | Promise<LineEdit>,
): Promise<CartView> {
  return askingTaxesFirst(ctx, (actx) =>
    inTx(actx, async (tctx) => {
      const cart = await lockCartForEdit(tctx.tx, id, variantIds);
      if (!cart) throw cartNotFound(id);
      assertCartVisible(cart, access);
      if (cart.completed_at) throw cartCompleted(id);
      const { lines, writes } = await edit(tctx, cart);
      const now = tctx.clock.now();
      const { variants: _read, ...edited } = { ...cart, lines, updated_at: now, last_activity_at: now };
      const repriced = await repriceMethods(tctx, edited);
      return finish(tctx, repriced.cart, 'cart.updated', [...writes, ...repriced.writes, cartTouch(id, now)]);
    }),
  );
}

export function addLineItem(ctx: Ctx, id: string, item: LineItemInputT, access: CartAccess): Promise<CartView> {
  return editLines(ctx, id, access, [item.variant_id], async (tctx, read) => {
    const { cart, variants } = await priceAddition(tctx, read, item, read.variants);
    return addLine(cart, item, variants, tctx.clock.now());
  });
}

export function updateLineItem(
  ctx: Ctx,
  id: string,
  lineId: string,
  input: { quantity: number; metadata?: Record<string, unknown> | null },
  access: CartAccess,
): Promise<CartView> {
  return editLines(ctx, id, access, [], async (tctx, read) =>
    setLineQuantity(tctx, await priceQuantityChange(tctx, read, lineId, input.quantity), lineId, input),
  );
}

export async function deleteLineItem(ctx: Ctx, id: string, lineId: string, access: CartAccess) {
  const parent = await editLines(ctx, id, access, [], (_tctx, cart) => removeLine(cart, lineId));
  return { id: lineId, object: 'line-item' as const, deleted: true as const, parent };
}
