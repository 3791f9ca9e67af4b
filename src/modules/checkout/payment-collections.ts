import { jsonObjectOf } from '../../platform/json.ts';
import type { Ctx } from '../../platform/context.ts';
import { errors } from '../../platform/http/errors.ts';
import { newId } from '../../platform/ids.ts';
import type { Providers } from '../../platform/providers.ts';
import { assertCartVisible, cartCompleted, type CartAccess } from '../carts/service.ts';
import { findCollection, openCollection, startSession } from '../payments/collections.ts';
import { callPaymentProvider } from '../payments/provider-calls.ts';
import { offeredProviders } from '../payments/providers.ts';
import { SYSTEM_PROVIDER, type PaymentCollectionView } from '../payments/schema.ts';
import { sessionStatus } from '../payments/session-status.ts';
import { startDifferenceSession } from '../orders/difference-collections.ts';
import { mutateCart } from './cart-flow.ts';
import { findCart } from './cart-read.ts';
import { cartViewOf, chargedTotal } from './cart-view.ts';
import { releaseSessions } from './session-release.ts';

/**
 * The storefront's payment steps before completing a cart. Each is a cart change, so the
 * collection's amount follows the cart total and `cart.updated` carries the new collection.
 */

/** `POST /store/payment-collections`: the cart's collection, created on first call (Medusa returns an existing one). */
export async function createPaymentCollection(
  ctx: Ctx,
  cartId: string,
  access: CartAccess,
): Promise<PaymentCollectionView> {
  const cart = await mutateCart(ctx, cartId, access, (tctx, row) => openCollection(tctx, row.id, row.currency_code));
  return cart.payment_collection!;
}

/**
 * `POST /store/payment-collections/{id}/payment-sessions`: replaces the collection's sessions with
 * one for this provider, which must be offered in the cart's region. A plugin's provider is asked
 * to initiate the payment first (outside any transaction; the session id is its idempotency key),
 * and its answer (e.g. a client secret) is the session's `data`. Replaced sessions of plugin
 * providers are released with their processor afterwards.
 */
export async function createPaymentSession(
  ctx: Ctx,
  collectionId: string,
  input: { provider_id: string; data?: Record<string, unknown> },
  access: CartAccess,
  providers: Providers,
): Promise<PaymentCollectionView> {
  const notFound = errors.notFound('payment_collection_not_found', { id: collectionId });
  const found = await findCollection(ctx, collectionId);
  // An order's difference after the sale: paid through the order desk's collection.
  if (found?.order_id)
    return startDifferenceSession(ctx, collectionId, input, { customerId: access.customerId }, providers);
  const cart = found?.cart_id ? await findCart(ctx.db, found.cart_id) : undefined;
  if (!cart) throw notFound;
  // A collection of a cart this shopper may not see is as unknown as a missing one.
  assertCartVisible(cart, access, notFound);
  if (!(await offeredProviders(ctx, cart.region_id, providers)).includes(input.provider_id))
    throw errors.invalid('payment_providers_not_found', { ids: input.provider_id });
  let session: { id?: string; data?: Record<string, unknown>; status?: ReturnType<typeof sessionStatus> } = {
    data: input.data,
  };
  if (input.provider_id !== SYSTEM_PROVIDER) {
    if (cart.completed_at) throw cartCompleted(cart.id);
    const id = newId('payses');
    const view = await cartViewOf(ctx, cart);
    const answer = await callPaymentProvider(
      providers,
      input.provider_id,
      'initiatePayment',
      {
        session_id: id,
        amount: chargedTotal(view),
        currency_code: view.currency_code,
        data: jsonObjectOf(input.data ?? {}),
        cart: { id: cart.id, email: view.email, customer_id: cart.customer_id },
      },
      `initiate:${id}`,
    );
    session = { id, data: answer.data ?? {}, status: sessionStatus(answer.status) };
  }
  const replaced = cart.payment_collection?.payment_sessions ?? [];
  const updated = await mutateCart(
    ctx,
    cart.id,
    access,
    (tctx, row) =>
      startSession(tctx, collectionId, { ...session, provider_id: input.provider_id, currency: row.currency_code }),
    notFound,
  );
  await releaseSessions(ctx, providers, replaced);
  return updated.payment_collection!;
}
