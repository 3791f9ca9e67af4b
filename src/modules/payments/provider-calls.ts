import type {
  AuthorizePaymentOutput,
  InitiatePaymentOutput,
  PaymentDataOutput,
  PaymentWebhookResult,
} from '../../../plugin-sdk/payments.ts';
import { AppError, appError, errors } from '../../platform/http/errors.ts';
import {
  ProviderCallError,
  ProviderTimeoutError,
  type JsonObject,
  type ProviderPort,
  type Providers,
} from '../../platform/providers.ts';

/**
 * Calls into plugins' payment providers (the plugin SDK's PaymentProvider, through the app's
 * ports), with the shop's rules: a deadline on every call, the idempotency key of the operation,
 * and the provider's failures as the shop's errors. Never called inside a database transaction:
 * a provider may take seconds, and on PGlite an open transaction holds up every other request.
 */

interface Answers {
  initiatePayment: InitiatePaymentOutput;
  authorizePayment: AuthorizePaymentOutput;
  capturePayment: PaymentDataOutput;
  refundPayment: PaymentDataOutput;
  cancelPayment: PaymentDataOutput;
  getWebhookActionAndData: PaymentWebhookResult;
}

export const PROVIDER_TIMEOUT = 'payment_provider_timeout' as const;

export const providerUnavailable = (id: string) => errors.notAllowed('payment_provider_unavailable', { id });

/** The running port of a plugin provider, or null (uninstalled, disabled, failed to load). */
export const paymentPort = (providers: Providers, id: string): ProviderPort | null => providers.payment.get(id) ?? null;

/**
 * Calls `method` of provider `id`. A provider that threw becomes a 400 not_allowed with its
 * message (code `payment_provider_error`); one that did not answer in time a 504 (code
 * `payment_provider_timeout`: the outcome is unknown, a retry with the same key is safe).
 */
export async function callPaymentProvider<M extends keyof Answers>(
  providers: Providers,
  id: string,
  method: M,
  input: JsonObject,
  idempotencyKey: string,
): Promise<Answers[M]> {
  const port = paymentPort(providers, id);
  if (!port) throw providerUnavailable(id);
  const deadline = Date.now() + providers.timeoutMs;
  try {
    const answer = await port.call(
      method,
      { ...input, context: { idempotency_key: idempotencyKey, deadline } },
      providers.timeoutMs,
    );
    // The answer crossed from the plugin's process as JSON; its shape is the provider contract's, which callers check where it matters.
    return answer as unknown as Answers[M];
  } catch (err) {
    if (err instanceof ProviderTimeoutError) throw appError(PROVIDER_TIMEOUT, { id, ms: err.timeoutMs });
    if (err instanceof ProviderCallError)
      throw errors.notAllowed('payment_provider_error', { id, detail: err.message });
    throw err;
  }
}

export const isProviderTimeout = (err: unknown) => err instanceof AppError && err.code === PROVIDER_TIMEOUT;
