import { createRequire } from 'node:module';
import type Stripe from 'stripe';
import type { StripeConfig } from '../../../platform/config.ts';
import { errors } from '../../../platform/http/errors.ts';
import type { PaymentProvider } from './payment-provider.ts';

/** Stripe refuses a Checkout Session expiring sooner than 30 minutes after it was created: leave room for clock skew. */
const EXPIRY_SLACK_SECONDS = 120;

// Loaded on first use: the package costs ~250 ms of start-up and most instances never talk to Stripe.
let stripeModule: typeof Stripe | undefined;
function StripeSdk(): typeof Stripe {
  stripeModule ??= createRequire(import.meta.url)('stripe') as typeof Stripe;
  return stripeModule;
}

function client(config: StripeConfig): Stripe {
  const Stripe = StripeSdk();
  return new Stripe(config.secretKey, {
    maxNetworkRetries: 1,
    timeout: 20_000,
    telemetry: false,
    ...(config.apiBase ?? {}),
  });
}

/**
 * Stripe Checkout (mode payment): one line item priced in euro cents, our session id as
 * client_reference_id and in metadata, so the signed webhook leads back to it. The customer
 * lands on our session status after paying or cancelling.
 */
export function stripeProvider(config: StripeConfig, publicUrl: string): PaymentProvider {
  const stripe = client(config);
  return {
    id: 'stripe',
    async createSession(input) {
      const status = `${publicUrl}/store/marketplace/checkout/session/${input.checkoutId}`;
      const session = await stripe.checkout.sessions.create(
        {
          mode: 'payment',
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: input.currency,
                unit_amount: input.amountCents,
                product_data: { name: `${input.itemName} (${input.marketplaceId} ${input.version})` },
              },
            },
          ],
          customer_email: input.customerEmail,
          client_reference_id: input.checkoutId,
          metadata: {
            checkout_session_id: input.checkoutId,
            marketplace_id: input.marketplaceId,
            version: input.version,
            instance_id: input.instanceId,
          },
          success_url: status,
          cancel_url: status,
          expires_at: Math.floor(input.expiresAt.getTime() / 1000) + EXPIRY_SLACK_SECONDS,
        },
        // A network retry by the client must not open a second session for the same checkout.
        { idempotencyKey: input.checkoutId },
      );
      if (!session.url) throw new Error(`Stripe returned checkout session ${session.id} without a url`);
      return { providerSessionId: session.id, url: session.url };
    },
  };
}

/** A paid Stripe Checkout Session, as reported by a verified webhook event. */
export interface StripePayment {
  checkoutId: string;
  providerSessionId: string;
}

/** Events that mean the money arrived: immediately, or later for delayed payment methods. */
const PAID_EVENTS = new Set(['checkout.session.completed', 'checkout.session.async_payment_succeeded']);

/**
 * Verifies `Stripe-Signature` over the raw body (400 when it does not match or is older than
 * Stripe's 5-minute tolerance on the app clock) and returns the paid session it reports, or
 * null for events that complete nothing (other types, unpaid completions, foreign sessions).
 */
export function readStripeEvent(
  config: StripeConfig,
  rawBody: Buffer,
  signature: string | undefined,
  now: Date,
): StripePayment | null {
  let event: Stripe.Event;
  try {
    event = StripeSdk().webhooks.constructEvent(
      rawBody,
      signature ?? '',
      config.webhookSecret,
      undefined,
      undefined,
      now.getTime(),
    );
  } catch (err) {
    throw errors.invalid(`Stripe webhook signature could not be verified: ${(err as Error).message}`);
  }
  if (!PAID_EVENTS.has(event.type)) return null;
  const session = event.data.object as Stripe.Checkout.Session;
  if (session.payment_status !== 'paid' && session.payment_status !== 'no_payment_required') return null;
  if (!session.client_reference_id?.startsWith('mcs_')) return null;
  return { checkoutId: session.client_reference_id, providerSessionId: session.id };
}
