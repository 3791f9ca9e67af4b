import type { SQL } from 'drizzle-orm';
import type { Ctx } from '../../platform/context.ts';
import type { NamedWrites } from '../../platform/db/one-statement.ts';
import { newId } from '../../platform/ids.ts';
import * as q from './queries.ts';
import { SYSTEM_PROVIDER, type PaymentCollectionView } from './schema.ts';

/**
 * The payment of a new order, added as named parts to checkout's statement (run with the order,
 * in one statement of its transaction); answers the order's payment collection as jsonb, read
 * from what those parts RETURN, by their names. Storefronts that created a collection and a
 * session get that session authorized and the others canceled; a collection without sessions
 * gets a manual one; the three-call flow (no collection) gets collection and session made with
 * the built-in manual provider. Either way the payment is `authorized` for the order total, to
 * be captured by the order desk.
 */
export function checkoutPayment(
  ctx: Ctx,
  writes: NamedWrites,
  input: {
    cartId: string;
    orderId: string;
    amount: number;
    currency: string;
    collection: PaymentCollectionView | null;
    /** What a plugin's provider answered when it authorized the chosen session (checkout asked it first). */
    providerData?: Record<string, unknown>;
  },
): SQL {
  const now = ctx.clock.now();
  const { amount, currency } = input;
  const existing = input.collection;
  // The newest session is the shopper's choice.
  const chosen = existing?.payment_sessions.at(-1);
  const collectionId = existing?.id ?? newId('pay_col');
  const sessionId = chosen?.id ?? newId('payses');
  const collection = writes.add(
    'payment_collection',
    existing
      ? q.authorizeCollection(existing.id, amount, now)
      : q.authorizedCollectionInsert({ id: collectionId, cartId: input.cartId, currency, amount, now }),
  );
  const session = writes.add(
    'payment_session',
    chosen
      ? q.authorizeSession(chosen.id, amount, now, input.providerData)
      : q.sessionInsert({
          id: sessionId,
          payment_collection_id: collectionId,
          provider_id: SYSTEM_PROVIDER,
          currency_code: currency,
          amount,
          status: 'authorized',
          data: {},
          created_at: now,
          updated_at: now,
        }),
  );
  const payment = writes.add(
    'payment',
    q.paymentInsert({
      id: newId('pay'),
      order_id: input.orderId,
      payment_collection_id: collectionId,
      payment_session_id: sessionId,
      provider_id: chosen?.provider_id ?? SYSTEM_PROVIDER,
      amount,
      currency_code: currency,
      data: input.providerData ?? {},
      now,
    }),
  );
  const sessions = [session];
  if (existing)
    sessions.push(writes.add('payment_sessions_canceled', q.cancelOtherSessions(existing.id, sessionId, now)));
  return q.orderCollectionJson({ collection, sessions, payment });
}
