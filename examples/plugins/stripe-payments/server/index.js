// Server entry of the Stripe payment provider. `emporium plugin pack` bundles it with the `stripe`
// package, so the installed plugin needs nothing from the shop's own node_modules.
import Stripe from 'stripe';

/** Stripe's PaymentIntent status as the shop's payment session status (as Medusa maps it). */
function statusOf(intent) {
  switch (intent.status) {
    case 'requires_capture':
      return 'authorized';
    case 'succeeded':
      return 'captured';
    case 'canceled':
      return 'canceled';
    case 'requires_action':
      return 'requires_more';
    case 'requires_payment_method':
      return intent.last_payment_error ? 'error' : 'pending';
    default:
      return 'pending';
  }
}

/** What the shop keeps of an intent: enough for the storefront (client secret) and for later calls. */
const dataOf = (intent) => ({
  id: intent.id,
  client_secret: intent.client_secret,
  status: intent.status,
  amount: intent.amount,
  currency: intent.currency,
});

function clientFor(config) {
  const base = config.api_base ? new URL(String(config.api_base)) : null;
  return new Stripe(String(config.secret_key ?? ''), {
    maxNetworkRetries: 1, // retries carry the same idempotency key
    timeout: 20_000,
    telemetry: false,
    ...(base
      ? { protocol: base.protocol.replace(':', ''), host: base.hostname, port: Number(base.port) || undefined }
      : {}),
  });
}

/** @type {import('@emporium/plugin-sdk').Plugin} */
export default {
  register(ctx) {
    // Read on every call, so a new key saved by the operator applies at once.
    const stripe = () => clientFor(ctx.config);
    const intentId = (data) => {
      if (typeof data?.id !== 'string') throw new Error('This payment has no Stripe PaymentIntent');
      return data.id;
    };

    ctx.payments.register({
      id: 'stripe',
      name: 'Stripe',

      async initiatePayment({ session_id, amount, currency_code, cart, context }) {
        const intent = await stripe().paymentIntents.create(
          {
            amount,
            currency: currency_code,
            capture_method: 'manual',
            automatic_payment_methods: { enabled: true },
            metadata: { session_id, cart_id: cart.id },
            ...(cart.email ? { receipt_email: cart.email } : {}),
          },
          { idempotencyKey: context.idempotency_key },
        );
        return { data: dataOf(intent), status: statusOf(intent) };
      },

      async authorizePayment({ data }) {
        const intent = await stripe().paymentIntents.retrieve(intentId(data));
        const status = statusOf(intent);
        return {
          status,
          amount: status === 'authorized' ? intent.amount_capturable : intent.amount,
          data: dataOf(intent),
        };
      },

      async getPaymentStatus({ data }) {
        const intent = await stripe().paymentIntents.retrieve(intentId(data));
        return { status: statusOf(intent), data: dataOf(intent) };
      },

      // Stripe captures an intent once: a partial capture releases the rest of the hold.
      async capturePayment({ amount, data, context }) {
        const intent = await stripe().paymentIntents.capture(
          intentId(data),
          { amount_to_capture: amount },
          { idempotencyKey: context.idempotency_key },
        );
        return { data: dataOf(intent) };
      },

      async refundPayment({ payment_id, amount, data, context }) {
        const refund = await stripe().refunds.create(
          { payment_intent: intentId(data), amount, metadata: { payment_id } },
          { idempotencyKey: context.idempotency_key },
        );
        return { data: { ...data, last_refund: refund.id } };
      },

      async cancelPayment({ data, context }) {
        if (typeof data?.id !== 'string') return { data: data ?? {} };
        try {
          const intent = await stripe().paymentIntents.cancel(data.id, {}, { idempotencyKey: context.idempotency_key });
          return { data: dataOf(intent) };
        } catch (err) {
          // Nothing left to release: already canceled, or captured (a partial capture released the rest).
          if (
            err?.raw?.code === 'payment_intent_unexpected_state' &&
            /status of (canceled|succeeded)/.test(err.message ?? '')
          )
            return { data };
          throw err;
        }
      },

      async getWebhookActionAndData({ headers, raw_body }) {
        // Throws on a bad or stale signature: the shop answers 400 and applies nothing.
        const event = stripe().webhooks.constructEvent(
          raw_body,
          headers['stripe-signature'],
          String(ctx.config.webhook_secret ?? ''),
        );
        const object = event.data.object;
        if (event.type === 'charge.refunded') {
          // Refunds are reported on the charge; the shop's session id lives on its intent.
          const intent =
            object.metadata?.session_id || !object.payment_intent
              ? null
              : await stripe().paymentIntents.retrieve(object.payment_intent);
          const session_id = object.metadata?.session_id ?? intent?.metadata?.session_id;
          if (!session_id) return { action: 'not_supported', event_id: event.id };
          return { action: 'refunded', event_id: event.id, session_id, amount: object.amount_refunded };
        }
        // Intents that this shop did not create carry no session id: not ours.
        const session_id = object.metadata?.session_id;
        if (object.object !== 'payment_intent' || !session_id) return { action: 'not_supported', event_id: event.id };
        switch (event.type) {
          case 'payment_intent.amount_capturable_updated':
            return { action: 'authorized', event_id: event.id, session_id, amount: object.amount_capturable };
          case 'payment_intent.succeeded':
            return { action: 'captured', event_id: event.id, session_id, amount: object.amount_received };
          case 'payment_intent.payment_failed':
            return { action: 'failed', event_id: event.id, session_id };
          case 'payment_intent.canceled':
            return { action: 'canceled', event_id: event.id, session_id };
          default:
            return { action: 'not_supported', event_id: event.id };
        }
      },
    });
  },
};
