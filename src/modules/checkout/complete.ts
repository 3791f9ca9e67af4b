import { cartProfileIds } from '../shipping-options/store-queries.ts';
import { offeredOptions } from './offered-options.ts';
import { sql } from 'drizzle-orm';
import { inTx, type Ctx, type TxCtx } from '../../platform/context.ts';
import { NamedWrites } from '../../platform/db/one-statement.ts';
import { isUniqueViolation, withTxRetry } from '../../platform/db/pg-errors.ts';
import { eventWrite } from '../../platform/events/emit.ts';
import { AppError, errors } from '../../platform/http/errors.ts';
import type { Providers } from '../../platform/providers.ts';
import { insufficientInventory } from '../carts/pricing.ts';
import { assertCartVisible, cartCompletedWrite, cartNotFound, type CartAccess } from '../carts/service.ts';
import { findOrderIdByCart, loadOrderView, orderView, placeOrder, withCreditLines } from '../orders/service.ts';
import type { CreditedOrderView, OrderView } from '../orders/schema.ts';
import { checkoutPayment } from '../payments/authorization.ts';
import { offeredOf } from '../payments/providers.ts';
import { SYSTEM_PROVIDER } from '../payments/schema.ts';
import { findVisibleCart, getCart } from './cart-flow.ts';
import { lockCartForCheckout, type CheckoutCart } from './cart-read.ts';
import { TaxQuestionFirst, withProviderTaxes } from '../cart-pricing/provider-taxes.ts';
import { answerFirst } from '../cart-pricing/tax-answers.ts';
import type { CartView } from './cart-schema.ts';
import { isStockShort, reservationParts } from './inventory-queries.ts';
import { authorizeWithProvider, type ProviderAuthorization } from './provider-authorization.ts';
import { releaseSessions } from './session-release.ts';

/** Medusa's answer: the order, or (when the payment was not authorized) the cart with the reason. */
export type CompleteResult =
  | { type: 'order'; order: CreditedOrderView }
  | { type: 'cart'; cart: CartView; error: { message: string; name: string; type: 'payment_authorization_error' } };

/** Thrown (rolling the checkout transaction back) when the cart's session is a plugin provider's, not yet asked. */
class NeedsAuthorization extends Error {}

const sessionNotOffered = (providerId: string) =>
  errors.invalid('payment_session_not_offered', {
    id: providerId,
    route: '/store/payment-collections/{id}/payment-sessions',
  });

const changedMeanwhile = () => errors.conflict('cart_changed_during_authorization');

/**
 * `POST /store/carts/{id}/complete`. Everything happens in one transaction, so a failure leaves
 * no order, payment or stock change behind. A session of a plugin's provider is authorized with
 * its processor first, outside any transaction (a processor may take seconds; the call is
 * idempotent, keyed by the session): the transaction stops before writing anything when it meets
 * such a session, the processor is asked, and the transaction runs again with its answer. Not
 * authorized: the cart comes back with Medusa's payment_authorization_error and nothing changes;
 * if the transaction then refuses (no stock, say), the authorization is released. The cart row
 * lock serialises completions of one cart: the second waits, then finds the cart completed and
 * answers the same order. The unique `orders.cart_id` is the backstop should anything slip past.
 */
export async function completeCart(
  ctx: Ctx,
  cartId: string,
  access: CartAccess,
  providers: Providers,
): Promise<CompleteResult> {
  let authorized: ProviderAuthorization | null = null;
  let session: Session | undefined;
  // A plugin's tax provider is asked outside the transaction too (cart-pricing/tax-answers.ts).
  const answers = ctx.providerAnswers ?? new Map<string, unknown>();
  ctx = { ...ctx, providerAnswers: answers };
  let taxAsks = 0;
  try {
    for (;;) {
      try {
        const order = await withTxRetry(() =>
          inTx(ctx, (tctx) => complete(tctx, cartId, access, providers, authorized)),
        );
        return { type: 'order', order };
      } catch (err) {
        if (err instanceof TaxQuestionFirst) {
          taxAsks = await answerFirst(err, answers, taxAsks);
          continue;
        }
        // Asked once; a session replaced in the meantime is a conflict below.
        if (!(err instanceof NeedsAuthorization) || authorized) throw err;
      }
      const cart = await findVisibleCart(ctx, cartId, access);
      session = cart.payment_collection?.payment_sessions.at(-1);
      if (!session || session.provider_id === SYSTEM_PROVIDER) throw changedMeanwhile();
      const outcome = await authorizeWithProvider(ctx, providers, cart, session);
      if ('error' in outcome) {
        const error = { message: outcome.error, name: 'Error', type: 'payment_authorization_error' as const };
        return { type: 'cart', cart: await getCart(ctx, cartId, access), error };
      }
      authorized = outcome;
    }
  } catch (err) {
    if (isUniqueViolation(err)) {
      const orderId = await findOrderIdByCart(ctx, cartId);
      if (orderId) return { type: 'order', order: (await loadOrderView(ctx, orderId))! };
    }
    if (authorized && session && err instanceof AppError && err.status < 500)
      await releaseSessions(ctx, providers, [{ ...session, data: authorized.data }]);
    throw err;
  }
}

type Session = NonNullable<CheckoutCart['payment_collection']>['payment_sessions'][number];

/**
 * Locks the cart row (a second checkout of the same cart waits here, then sees it completed) and
 * reads it whole, with the state of its lines' variants, in one statement.
 */
async function lockVisibleCart(tctx: TxCtx, cartId: string, access: CartAccess): Promise<CheckoutCart> {
  const cart = await lockCartForCheckout(tctx.tx, cartId);
  if (!cart) throw cartNotFound(cartId);
  assertCartVisible(cart, access);
  return cart;
}

const chooseAgain = 'choose a shipping method again with POST /store/carts/{id}/shipping-methods';

/**
 * What the cart was given may have changed since: a product unpublished, deleted or taken out of
 * the cart's channel is refused as when it is added; a shipping option deleted (or moved to
 * another region) or repriced since it was chosen is refused too, so the order never ships by an
 * option the store no longer offers, nor at a price the shopper did not see. A new price is not
 * taken silently: the shopper agreed to the total shown, and a plugin's session authorized that
 * total (the order would not match it); choosing the method again shows the new total and keeps
 * the payment collection in step. Read in the lock's statement: no extra round trip. Answers the
 * variants that manage stock.
 */
function assertStillOnSale(cart: CheckoutCart): Set<string> {
  const states = new Map(cart.variant_states.map((s) => [s.id, s]));
  const gone = cart.lines.map((l) => l.variant_id).filter((id) => !states.get(id)?.live || !states.get(id)?.in_channel);
  if (gone.length) throw errors.invalid('variants_unavailable', { ids: [...new Set(gone)].join(', ') });
  for (const m of cart.methods) {
    const now = cart.method_states.find((s) => s.id === m.id);
    if (now?.amount == null)
      throw errors.invalid('shipping_option_gone', { id: m.shipping_option_id, next: chooseAgain });
  }
  return new Set(cart.variant_states.filter((s) => s.manage_inventory).map((s) => s.id));
}

/**
 * Each method's option is still offered to the cart (its address, channel and profiles), at the
 * price it was chosen at (a flat one; a provider's quote stands); and a cart with methods, or
 * with items of two profiles or more, has a method for every profile of its items.
 */
async function assertMethodsOffered(tctx: TxCtx, cart: CheckoutCart, itemTotal: number): Promise<void> {
  const profiles = await cartProfileIds(tctx.tx, cart.id);
  if (!cart.methods.length && profiles.length < 2) return;
  const offered = new Map((await offeredOptions(tctx.tx, cart, itemTotal)).map((o) => [o.row.id, o]));
  const covered = new Set<string>();
  for (const m of cart.methods) {
    const now = offered.get(m.shipping_option_id);
    if (!now) throw errors.invalid('shipping_option_gone', { id: m.shipping_option_id, next: chooseAgain });
    if (now.amount !== null && now.amount !== m.amount)
      throw errors.invalid('shipping_price_changed', { id: m.shipping_option_id, next: chooseAgain });
    covered.add(now.row.shipping_profile_id);
  }
  const missing = profiles.filter((p) => !covered.has(p));
  if (missing.length) throw errors.invalid('shipping_profiles_unserved', { profiles: missing.join(', ') });
}

async function complete(
  tctx: TxCtx,
  cartId: string,
  access: CartAccess,
  providers: Providers,
  authorized: ProviderAuthorization | null,
): Promise<CreditedOrderView> {
  const cart = await lockVisibleCart(tctx, cartId, access);
  if (cart.completed_at) {
    const orderId = cart.order_id ?? (await findOrderIdByCart(tctx, cartId));
    return (await loadOrderView(tctx, orderId!))!;
  }
  const { lines, methods } = cart;
  if (!lines.length) throw errors.invalid('cart_empty');
  if (!cart.email) throw errors.invalid('cart_email_missing', { route: '/store/carts/{id}' });

  const managed = assertStillOnSale(cart);

  const offered = offeredOf(cart.region_providers, providers);
  const chosen = cart.payment_collection?.payment_sessions.at(-1);
  if (!chosen && !offered.includes(SYSTEM_PROVIDER)) throw errors.invalid('payment_session_required');
  const viaProvider = !!chosen && chosen.provider_id !== SYSTEM_PROVIDER;
  // A plugin's session no longer offered is answered by authorizeWithProvider, as Medusa's
  // payment_authorization_error (the storefront offers another payment method).
  if (viaProvider && !authorized) throw new NeedsAuthorization();
  // Sessions are checked against the region when created, but the cart may have moved to another
  // region since, or the operator changed the region's providers: a manual session would then
  // place an order without the payment the region asks for. A plugin's provider withdrawn after
  // its authorization is refused here too (completeCart releases the hold).
  if (chosen && !offered.includes(chosen.provider_id)) throw sessionNotOffered(chosen.provider_id);

  // A plugin's tax provider prices the order as it priced the cart (a 503, nothing written, when it
  // fails); asked before this transaction, about this very cart (else it stops here, before writing).
  const pricing_facts = await withProviderTaxes(tctx, {
    ...cart,
    lines,
    methods,
    region: { automatic_taxes: cart.region_automatic_taxes },
  });
  const placed = placeOrder(tctx, { ...cart, email: cart.email, pricing_facts }, lines, methods, managed);
  const { order } = placed;
  await assertMethodsOffered(tctx, cart, order.item_total);
  // What the processor authorized must be this session, for this total: a cart changed meanwhile is completed again.
  if (viaProvider && (authorized?.sessionId !== chosen.id || authorized.amount !== order.total))
    throw changedMeanwhile();
  // A new order has no credit lines yet; the event and the answer name them as every later read does.
  const view = withCreditLines(orderView(order, placed.lines, placed.methods, []), []);

  // One statement, its parts named: what the database draws or RETURNs (the display_id, the
  // payment rows) is read by name, for the event and for the answer alike. See README.md.
  const writes = new NamedWrites();
  writes.addAll(placed.writes);
  const collection = checkoutPayment(tctx, writes, {
    cartId,
    orderId: order.id,
    amount: order.total,
    currency: order.currency_code,
    collection: cart.payment_collection,
    providerData: viaProvider ? authorized?.data : undefined,
  });
  writes.add('cart_completed', cartCompletedWrite(tctx, cartId, order.id));
  const displayId = sql`(select display_id from ${writes.ref('order')})`;
  const paymentCollections = sql`jsonb_build_array(${collection})`;
  writes.add(
    'order_placed',
    eventWrite(tctx, 'order.placed', view, { display_id: displayId, payment_collections: paymentCollections }),
  );
  // Stock is reserved in the same statement as everything else. A shortfall fails the statement
  // and the whole transaction, order included, rolls back.
  const reserved = placed.lines.flatMap((l) =>
    l.variant_id && managed.has(l.variant_id) ? [{ id: l.id, variant_id: l.variant_id, quantity: l.quantity }] : [],
  );
  writes.addAll(reservationParts(reserved, cart.sales_channel_id, tctx.clock.now()));
  const [done] = await writes
    .run<{
      display_id: number;
      payment_collections: OrderView['payment_collections'];
    }>(tctx.tx, sql`select ${displayId} as display_id, ${paymentCollections} as payment_collections`)
    .catch((err) => {
      throw isStockShort(err) ? insufficientInventory() : err;
    });
  view.display_id = done.display_id;
  view.payment_collections = done.payment_collections;
  return view;
}
