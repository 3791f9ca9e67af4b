import type { SQL } from 'drizzle-orm';
import type { Ctx } from '../../platform/context.ts';
import { asStoredJson } from '../../platform/db/json-rows.ts';
import { newId } from '../../platform/ids.ts';
import * as q from './queries.ts';
import { SYSTEM_PROVIDER, type OrderPaymentCollectionView, type PaymentCollectionView } from './schema.ts';

/**
 * The payment of a new order, for the checkout's statement: what it will be, and the writes that
 * make it so (checkout runs them with the order, in one statement of its transaction). Storefronts
 * that created a collection and a session get that session authorized; the three-call flow (no
 * collection) gets one made with the built-in manual provider. Either way the payment is
 * `authorized` for the order total, to be captured by the order desk.
 */
export function checkoutPayment(
  ctx: Ctx,
  input: {
    cartId: string;
    orderId: string;
    amount: number;
    currency: string;
    collection: PaymentCollectionView | null;
    /** What a plugin's provider answered when it authorized the chosen session (checkout asked it first). */
    providerData?: Record<string, unknown>;
  },
): { view: OrderPaymentCollectionView; writes: SQL[] } {
  const now = ctx.clock.now();
  const stamps = { created_at: now, updated_at: now };
  if (!input.collection) {
    // The short flow: no collection, so the built-in manual provider stands in.
    const ids = { collection: newId('pay_col'), session: newId('payses'), payment: newId('pay') };
    const v = {
      cartId: input.cartId,
      orderId: input.orderId,
      provider: SYSTEM_PROVIDER,
      amount: input.amount,
      currency: input.currency,
      now,
    };
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
    const view = {
      id: ids.collection,
      cart_id: input.cartId,
      currency_code: input.currency,
      amount: input.amount,
      status: 'authorized',
      payment_sessions: [session],
      payments: [payment],
      ...stamps,
    };
    return { view, writes: q.authorizedChainWrites(ids, v) };
  }
  const collection = input.collection;
  const writes: SQL[] = [];
  // The newest session is the shopper's choice; a collection without any gets a manual one.
  let session = collection.payment_sessions.at(-1);
  let sessions = collection.payment_sessions;
  if (!session) {
    const row = {
      id: newId('payses'),
      payment_collection_id: collection.id,
      provider_id: SYSTEM_PROVIDER,
      currency_code: input.currency,
      amount: input.amount,
      status: 'authorized' as const,
      data: {},
      ...stamps,
    };
    writes.push(q.sessionInsert(row));
    session = row;
    sessions = [row];
  } else writes.push(q.authorizeSessionWrite(session.id, input.amount, now, input.providerData));
  writes.push(...q.authorizeCollectionWrites(collection.id, session.id, input.amount, now));
  const data = input.providerData ?? session.data;
  const paymentId = newId('pay');
  writes.push(
    q.paymentInsert({
      id: paymentId,
      order_id: input.orderId,
      payment_collection_id: collection.id,
      payment_session_id: session.id,
      provider_id: session.provider_id,
      amount: input.amount,
      currency_code: input.currency,
      data: input.providerData ?? {},
      now,
    }),
  );
  // As the row reads back: its defaults, and its data in jsonb's key order.
  const payment = {
    id: paymentId,
    order_id: input.orderId,
    payment_collection_id: collection.id,
    payment_session_id: session.id,
    provider_id: session.provider_id,
    amount: input.amount,
    currency_code: input.currency,
    status: 'authorized',
    captured_amount: 0,
    refunded_amount: 0,
    captured_at: null,
    canceled_at: null,
    data: asStoredJson(input.providerData ?? {}),
    ...stamps,
  };
  const chosen = session.id;
  return {
    view: {
      ...collection,
      amount: input.amount,
      status: 'authorized',
      updated_at: now,
      payment_sessions: sessions.map((s) =>
        s.id === chosen
          ? { ...s, amount: input.amount, status: 'authorized', data, updated_at: now }
          : { ...s, status: 'canceled', updated_at: now },
      ),
      payments: [payment],
    },
    writes,
  };
}
