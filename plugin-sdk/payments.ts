/**
 * Payment providers: what a `payment-provider` plugin implements so that the shop can take money
 * through a processor (Stripe, Adyen, …). Shaped after Medusa's AbstractPaymentProvider, so a
 * Medusa provider ports over method by method.
 *
 * Rules the shop keeps, whatever the provider does:
 * - Every argument and every answer is plain JSON (no class instances, no functions), and every
 *   call has a deadline (`context.deadline`, unix milliseconds): a provider that has not answered
 *   by then is treated as "outcome unknown" and the same operation is later retried with the same
 *   `context.idempotency_key`. Pass that key to the processor so a retry never charges twice.
 * - Amounts are integers in the currency's minor unit (1999 = 19.99 EUR), as everywhere in the shop.
 * - The shop's ledger is the source of truth. A method that throws refuses the operation: the
 *   order stays as it was and the admin sees the thrown message.
 * - `data` is the provider's own JSON about the payment (for Stripe, the PaymentIntent). The shop
 *   stores what `initiatePayment` returned on the payment session (the storefront reads it, e.g.
 *   a client secret) and hands the newest `data` back to every later call.
 */

import type { JsonObject } from './json.ts';

/** Medusa's payment session statuses. `authorized`: funds held, ready to capture. */
export type PaymentSessionStatus = 'pending' | 'requires_more' | 'authorized' | 'captured' | 'error' | 'canceled';

/** Sent with every call. */
export interface PaymentCallContext {
  /** The same on every retry of one operation: use it as the processor's idempotency key. */
  idempotency_key: string;
  /** Unix milliseconds after which the shop no longer waits for this call. */
  deadline: number;
}

export interface InitiatePaymentInput {
  /** The shop's payment session (`payses_…`): store it with the processor to find it in webhooks. */
  session_id: string;
  amount: number;
  currency_code: string;
  /** What the storefront sent as `data` when it created the session. */
  data: JsonObject;
  cart: { id: string; email: string | null; customer_id: string | null };
  context: PaymentCallContext;
}

export interface InitiatePaymentOutput {
  /** Stored on the session and shown to the storefront (e.g. `{ id: 'pi_…', client_secret }`). */
  data: JsonObject;
  status?: PaymentSessionStatus;
}

/** Authorize, status, cancel: the session and what the provider said about it last. */
export interface PaymentSessionInput {
  session_id: string;
  amount: number;
  currency_code: string;
  data: JsonObject;
  context: PaymentCallContext;
}

export interface AuthorizePaymentOutput {
  /** Only `authorized` (or `captured`) lets the cart complete; anything else is shown as a failed authorization. */
  status: PaymentSessionStatus;
  /** The amount the processor holds; the shop refuses an order whose total differs. */
  amount?: number;
  data: JsonObject;
}

/** Capture and refund: the order's payment and the amount of this operation. */
export interface PaymentAmountInput {
  payment_id: string;
  session_id: string | null;
  amount: number;
  currency_code: string;
  data: JsonObject;
  context: PaymentCallContext;
}

export interface PaymentDataOutput {
  data?: JsonObject;
}

export interface PaymentStatusOutput {
  status: PaymentSessionStatus;
  data?: JsonObject;
}

/** A provider's webhook request exactly as it arrived. */
export interface PaymentWebhookInput {
  /** Header names lower-cased. */
  headers: Record<string, string>;
  /** The body as received (UTF-8), for signature checks over the exact bytes. */
  raw_body: string;
  context: { deadline: number };
}

/**
 * What a verified webhook means for the shop. `amount` is a running total at the processor:
 * for `captured` everything captured so far, for `refunded` everything refunded so far, so that
 * applying the same event twice, or two events out of order, changes nothing the second time.
 */
export interface PaymentWebhookResult {
  action:
    | 'authorized'
    | 'captured'
    | 'refunded'
    | 'failed'
    | 'canceled'
    | 'pending'
    | 'requires_more'
    | 'not_supported';
  /** The processor's event id: the shop ignores an event id it has already applied. */
  event_id?: string;
  session_id?: string;
  amount?: number;
}

/**
 * A payment provider, registered from `register(ctx)` with `ctx.payments.register(provider)`.
 * It appears to storefronts as `pp_<id>` in `GET /store/payment-providers?region_id=` for the
 * regions whose `payment_providers` include it (`POST /admin/regions/{id}`), and receives its
 * processor's webhooks at `POST /hooks/payment/<id>` (also `/store/payment-webhooks/pp_<id>`).
 *
 * @example
 * ```js
 * ctx.payments.register({
 *   id: 'acme-pay',
 *   name: 'Acme Pay',
 *   async initiatePayment({ session_id, amount, currency_code, context }) {
 *     const intent = await acme.intents.create({ amount, currency_code, ref: session_id }, { idempotencyKey: context.idempotency_key });
 *     return { data: { id: intent.id, client_secret: intent.secret }, status: 'pending' };
 *   },
 *   async authorizePayment({ data }) {
 *     const intent = await acme.intents.get(data.id);
 *     return { status: intent.held ? 'authorized' : 'pending', amount: intent.amount, data: { id: intent.id } };
 *   },
 *   async capturePayment({ amount, data, context }) { await acme.intents.capture(data.id, amount, { idempotencyKey: context.idempotency_key }); return {}; },
 *   async refundPayment({ amount, data, context }) { await acme.refunds.create(data.id, amount, { idempotencyKey: context.idempotency_key }); return {}; },
 *   async cancelPayment({ data, context }) { await acme.intents.void(data.id, { idempotencyKey: context.idempotency_key }); return {}; },
 *   async getPaymentStatus({ data }) { return { status: (await acme.intents.get(data.id)).held ? 'authorized' : 'pending' }; },
 *   async getWebhookActionAndData({ headers, raw_body }) {
 *     const event = acme.webhooks.verify(raw_body, headers['acme-signature'], ctx.config.webhook_secret); // throws when forged
 *     return { action: 'captured', event_id: event.id, session_id: event.ref, amount: event.captured_total };
 *   },
 * });
 * ```
 */
export interface PaymentProvider {
  /** Lower-case slug, unique in the shop: the provider id becomes `pp_<id>`. */
  id: string;
  /** Shown to the admin; defaults to the id. */
  name?: string;
  /** A shopper chose this provider (`POST /store/payment-collections/{id}/payment-sessions`). */
  initiatePayment(input: InitiatePaymentInput): Promise<InitiatePaymentOutput>;
  /** Cart completion: is the money held? Must be safe to call again for the same session. */
  authorizePayment(input: PaymentSessionInput): Promise<AuthorizePaymentOutput>;
  /** The order desk captures `amount` (all or part of what is authorized). Throw to refuse. */
  capturePayment(input: PaymentAmountInput): Promise<PaymentDataOutput>;
  /** The order desk refunds `amount` of what was captured. Throw to refuse. */
  refundPayment(input: PaymentAmountInput): Promise<PaymentDataOutput>;
  /** Releases an authorization (order canceled, session replaced, completion failed after authorizing). */
  cancelPayment(input: PaymentSessionInput): Promise<PaymentDataOutput>;
  getPaymentStatus(input: PaymentSessionInput): Promise<PaymentStatusOutput>;
  /** Verifies an inbound webhook (throw when it does not verify) and says what it means. */
  getWebhookActionAndData?(input: PaymentWebhookInput): Promise<PaymentWebhookResult>;
}
