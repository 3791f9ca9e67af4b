import { jsonObjectOf } from '../../platform/json.ts';
import type { Ctx } from '../../platform/context.ts';
import { AppError, errors } from '../../platform/http/errors.ts';
import type { Providers } from '../../platform/providers.ts';
import { setSessionOutcome } from '../payments/collections.ts';
import { callPaymentProvider, isProviderTimeout } from '../payments/provider-calls.ts';
import { offeredProviders } from '../payments/providers.ts';
import type { PaymentCollectionView } from '../payments/schema.ts';
import { sessionStatus } from '../payments/session-status.ts';
import type { FullCart } from './cart-read.ts';
import { cartViewOf, chargedTotal } from './cart-view.ts';

type Session = PaymentCollectionView['payment_sessions'][number];

/** A processor's yes for one session and amount, carried into the checkout transaction. */
export interface ProviderAuthorization {
  sessionId: string;
  amount: number;
  data: Record<string, unknown>;
}

/**
 * Asks the session's processor whether the cart total is held (`authorizePayment`, keyed by the
 * session so a retry is the same question). Answers the authorization, or the reason it failed
 * (shown to the storefront as Medusa's payment_authorization_error; the session keeps the
 * provider's status). A processor that does not answer in time is a 504 and nothing changes: the
 * shopper may complete again. The shop does not take the provider's word for the amount.
 */
export async function authorizeWithProvider(
  ctx: Ctx,
  providers: Providers,
  cart: FullCart,
  session: Session,
): Promise<ProviderAuthorization | { error: string }> {
  // The transaction repeats these; checked first so an empty cart never reaches the processor.
  if (!cart.lines.length) throw errors.invalid('cart_empty');
  if (!cart.email) throw errors.invalid('cart_email_missing', { route: '/store/carts/{id}' });
  if (!(await offeredProviders(ctx, cart.region_id, providers)).includes(session.provider_id))
    return { error: `Payment provider ${session.provider_id} is not available: choose another payment method` };
  const total = chargedTotal(await cartViewOf(ctx, cart));
  let answer: Awaited<ReturnType<typeof callPaymentProvider<'authorizePayment'>>>;
  try {
    answer = await callPaymentProvider(
      providers,
      session.provider_id,
      'authorizePayment',
      { session_id: session.id, amount: total, currency_code: cart.currency_code, data: jsonObjectOf(session.data) },
      `authorize:${session.id}`,
    );
  } catch (err) {
    if (isProviderTimeout(err) || !(err instanceof AppError)) throw err;
    return { error: err.message };
  }
  const status = sessionStatus(answer.status);
  const data = (answer.data ?? session.data) as Record<string, unknown>;
  if (status !== 'authorized') {
    await setSessionOutcome(ctx, session.id, { status, data });
    return { error: 'Payment authorization failed' };
  }
  if (answer.amount !== undefined && answer.amount !== total)
    return {
      error: `The payment holds ${answer.amount} ${cart.currency_code} but the cart total is ${total}: start a new payment session`,
    };
  return { sessionId: session.id, amount: total, data };
}
