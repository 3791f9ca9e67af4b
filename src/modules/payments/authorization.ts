import type { SQL } from 'drizzle-orm';
import type { Ctx } from '../../platform/context.ts';
import type { NamedPart } from '../../platform/db/one-statement.ts';
import { newId } from '../../platform/ids.ts';
import * as q from './queries.ts';
import { SYSTEM_PROVIDER, type PaymentCollectionView } from './schema.ts';

/**
 * The payment of a new order, as named parts of checkout's statement (run with the order, in one
 * statement of its transaction), and `collection`: the order's payment collection as jsonb, read
 * from what those parts RETURN. Storefronts that created a collection and a session get that
 * session authorized and the others canceled; a collection without sessions gets a manual one;
 * the three-call flow (no collection) gets collection and session made with the built-in manual
 * provider. Either way the payment is `authorized` for the order total, to be captured by the
 * order desk.
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
): { parts: NamedPart[]; collection: SQL } {
  const now = ctx.clock.now();
  const { amount, currency } = input;
  const existing = input.collection;
  // The newest session is the shopper's choice.
  const chosen = existing?.payment_sessions.at(-1);
  const collectionId = existing?.id ?? newId('pay_col');
  const sessionId = chosen?.id ?? newId('payses');
  const parts: NamedPart[] = [
    [
      'payment_collection',
      existing
        ? q.authorizeCollection(existing.id, amount, now)
        : q.authorizedCollectionInsert({ id: collectionId, cartId: input.cartId, currency, amount, now }),
    ],
    [
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
    ],
    [
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
    ],
  ];
  const sessions = ['payment_session'];
  if (existing) {
    parts.push(['payment_sessions_canceled', q.cancelOtherSessions(existing.id, sessionId, now)]);
    sessions.push('payment_sessions_canceled');
  }
  return {
    parts,
    collection: q.orderCollectionJson({ collection: 'payment_collection', sessions, payment: 'payment' }),
  };
}
