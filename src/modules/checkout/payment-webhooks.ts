import type { PaymentWebhookResult } from '../../../plugin-sdk/payments.ts';
import type { Ctx } from '../../platform/context.ts';
import { AppError, errors } from '../../platform/http/errors.ts';
import type { Providers } from '../../platform/providers.ts';
import { authorizedByProvider } from '../orders/difference-collections.ts';
import { afterCapture, afterRefund } from '../orders/payment-actions.ts';
import { catchUpWithProvider } from '../orders/provider-payments.ts';
import { findCollection, findSession, setSessionOutcome } from '../payments/collections.ts';
import { findPaymentIdBySession, findWebhookEvent, recordWebhookEvent } from '../payments/operations.ts';
import { callPaymentProvider, isProviderTimeout, paymentPort } from '../payments/provider-calls.ts';
import { completeCart } from './complete.ts';
import { findCart } from './cart-read.ts';

/** Headers a provider never needs (the caller's credentials, if any, stay with the shop). */
const DROPPED = new Set(['authorization', 'cookie']);

/**
 * `POST /hooks/payment/{provider}` and `POST /store/payment-webhooks/{provider_id}`: a processor
 * reports what happened to a payment. The provider verifies the request (its signature over the
 * exact bytes) and says what it means; the shop applies it at most once per event id, and every
 * action converges on totals (see PaymentWebhookResult), so a repeated or late event changes
 * nothing. Applied before answering: a failure answers 500 and the processor sends it again.
 */
export async function receivePaymentWebhook(
  ctx: Ctx,
  providers: Providers,
  provider: string,
  headers: Record<string, string | string[] | undefined>,
  raw: Buffer,
): Promise<{ received: true }> {
  const id = provider.startsWith('pp_') ? provider : `pp_${provider}`;
  const port = paymentPort(providers, id);
  if (!port?.methods.includes('getWebhookActionAndData')) throw errors.notFound('payment_webhooks_not_taken', { id });
  const plain: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers))
    if (v !== undefined && !DROPPED.has(k.toLowerCase())) plain[k.toLowerCase()] = [v].flat().join(', ');
  let result: PaymentWebhookResult;
  try {
    result = await callPaymentProvider(
      providers,
      id,
      'getWebhookActionAndData',
      { headers: plain, raw_body: raw.toString('utf8') },
      `webhook:${id}`,
    );
  } catch (err) {
    if (isProviderTimeout(err) || !(err instanceof AppError)) throw err;
    throw errors.invalid('payment_webhook_refused', { id, detail: err.message });
  }
  if (result.event_id && (await findWebhookEvent(ctx, id, result.event_id))) return { received: true };
  await applyWebhook(ctx, providers, id, result);
  if (result.event_id)
    await recordWebhookEvent(ctx, {
      provider_id: id,
      event_id: String(result.event_id).slice(0, 200),
      action: String(result.action),
      session_id: result.session_id ?? null,
      amount: typeof result.amount === 'number' ? result.amount : null,
      received_at: ctx.clock.now(),
    });
  return { received: true };
}

async function applyWebhook(ctx: Ctx, providers: Providers, id: string, r: PaymentWebhookResult): Promise<void> {
  if (typeof r.session_id !== 'string') return;
  const session = await findSession(ctx, r.session_id);
  // Another provider's session, or none of ours: acknowledged and ignored.
  if (!session || session.provider_id !== id) return;
  const amount = Number.isSafeInteger(r.amount) && (r.amount as number) >= 0 ? (r.amount as number) : undefined;
  let paymentId = await findPaymentIdBySession(ctx, session.id);
  switch (r.action) {
    case 'failed':
    case 'canceled':
      if (!paymentId && session.status !== 'authorized')
        await setSessionOutcome(ctx, session.id, { status: r.action === 'failed' ? 'error' : 'canceled' });
      return;
    case 'authorized':
    case 'captured':
      paymentId ??=
        (await completeAfterPayment(ctx, providers, session.id, session.payment_collection_id)) ??
        (await payDifference(ctx, session.id, session.payment_collection_id));
      if (paymentId && r.action === 'captured' && amount !== undefined)
        await catchUpWithProvider(ctx, paymentId, 'capture', amount, afterCapture);
      return;
    case 'refunded':
      if (paymentId && amount !== undefined) await catchUpWithProvider(ctx, paymentId, 'refund', amount, afterRefund);
      return;
    default:
      return;
  }
}

/**
 * The shopper paid but the cart was never completed (the tab closed before the storefront called
 * complete): the processor's word completes it, as Medusa does, if the session is still the
 * cart's choice. A cart that cannot complete (no stock) is logged; its hold is released there.
 */
async function completeAfterPayment(
  ctx: Ctx,
  providers: Providers,
  sessionId: string,
  collectionId: string,
): Promise<string | undefined> {
  const collection = await findCollection(ctx, collectionId);
  const cart = collection?.cart_id ? await findCart(ctx.db, collection.cart_id) : undefined;
  if (!cart || cart.completed_at || cart.payment_collection?.payment_sessions.at(-1)?.id !== sessionId) return;
  try {
    await completeCart(ctx, cart.id, { customerId: cart.customer_id, channelIds: null }, providers);
  } catch (err) {
    ctx.log.warn({ err, cart: cart.id }, 'a paid cart could not be completed from the provider webhook');
  }
  return findPaymentIdBySession(ctx, sessionId);
}

/**
 * The shopper paid an order's difference (an exchange or edit that cost more, a draft converted
 * unpaid) and the storefront never authorized it: the processor's word records the payment, then
 * a capture it reports lands in the ledger like any other.
 */
async function payDifference(ctx: Ctx, sessionId: string, collectionId: string): Promise<string | undefined> {
  return (await authorizedByProvider(ctx, sessionId, collectionId)) ?? findPaymentIdBySession(ctx, sessionId);
}
