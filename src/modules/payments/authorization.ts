import type { TxCtx } from '../../platform/context.ts';
import { newId } from '../../platform/ids.ts';
import * as q from './queries.ts';
import { SYSTEM_PROVIDER, type OrderPaymentCollectionView, type PaymentCollectionView } from './schema.ts';

/**
 * The payment of a new order, inside the checkout's transaction. Storefronts that created a
 * collection and a session get that session authorized; the spec's short flow (no collection)
 * gets one made with the built-in manual provider. Either way the payment is `authorized` for
 * the order total, to be captured by the order desk.
 */
export async function authorizeCheckoutPayment(
  tctx: TxCtx,
  input: {
    cartId: string;
    orderId: string;
    amount: number;
    currency: string;
    collection: PaymentCollectionView | null;
    /** What a plugin's provider answered when it authorized the chosen session (checkout asked it first). */
    providerData?: Record<string, unknown>;
  },
): Promise<OrderPaymentCollectionView> {
  const { tx } = tctx;
  const now = tctx.clock.now();
  if (!input.collection) {
    // The short flow: no collection, so the built-in manual provider stands in, in one statement.
    const ids = { collection: newId('pay_col'), session: newId('payses'), payment: newId('pay') };
    const v = {
      cartId: input.cartId,
      orderId: input.orderId,
      provider: SYSTEM_PROVIDER,
      amount: input.amount,
      currency: input.currency,
      now,
    };
    await q.insertAuthorizedChain(tx, ids, v);
    const stamps = { created_at: now, updated_at: now };
    const session = {
      id: ids.session,
      payment_collection_id: ids.collection,
      provider_id: SYSTEM_PROVIDER,
      currency_code: input.currency,
      amount: input.amount,
      status: 'authorized',
      data: {},
      ...stamps,
    };
    const payment = {
      id: ids.payment,
      order_id: input.orderId,
      payment_collection_id: ids.collection,
      payment_session_id: ids.session,
      provider_id: SYSTEM_PROVIDER,
      amount: input.amount,
      currency_code: input.currency,
      status: 'authorized',
      captured_amount: 0,
      refunded_amount: 0,
      captured_at: null,
      canceled_at: null,
      data: {},
      ...stamps,
    };
    return {
      id: ids.collection,
      cart_id: input.cartId,
      currency_code: input.currency,
      amount: input.amount,
      status: 'authorized',
      payment_sessions: [session],
      payments: [payment],
      ...stamps,
    };
  }
  const collection = input.collection;
  // The newest session is the shopper's choice; a collection without any gets a manual one.
  let session = collection.payment_sessions.at(-1);
  if (!session) {
    const row = {
      id: newId('payses'),
      payment_collection_id: collection.id,
      provider_id: SYSTEM_PROVIDER,
      currency_code: input.currency,
      amount: input.amount,
      status: 'authorized' as const,
      data: {},
      created_at: now,
      updated_at: now,
    };
    await q.insertSession(tx, row);
    session = row;
    collection.payment_sessions.push(session);
  }
  await q.authorizeCollection(tx, collection.id, session.id, input.amount, now);
  const data = input.providerData ?? session.data;
  if (input.providerData) await q.updateSession(tx, session.id, { data });
  const payment = await q.insertPayment(tx, {
    id: newId('pay'),
    order_id: input.orderId,
    payment_collection_id: collection.id,
    payment_session_id: session.id,
    provider_id: session.provider_id,
    amount: input.amount,
    currency_code: input.currency,
    status: 'authorized',
    data: input.providerData ?? {},
    created_at: now,
    updated_at: now,
  });
  const chosen = session.id;
  const sessions = collection.payment_sessions.map((s) =>
    s.id === chosen
      ? { ...s, amount: input.amount, status: 'authorized', data, updated_at: now }
      : { ...s, status: 'canceled', updated_at: now },
  );
  return {
    ...collection,
    amount: input.amount,
    status: 'authorized',
    updated_at: now,
    payment_sessions: sessions,
    payments: [payment],
  };
}
