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

export function stripeClient(config: StripeConfig): Stripe {
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
  const stripe = stripeClient(config);
  return {
    id: 'stripe',
    async createSession(input) {
      const status = `${publicUrl}/store/marketplace/checkout/session/${input.checkoutId}`;
      const recurring = input.billing === 'one_time' ? null : input.billing === 'monthly' ? 'month' : 'year';
      const metadata = {
        checkout_session_id: input.checkoutId,
        marketplace_id: input.marketplaceId,
        version: input.version,
        instance_id: input.instanceId,
      };
      const session = await stripe.checkout.sessions.create(
        {
          // A recurring item is a Stripe subscription: Stripe charges each period and reports each invoice.
          mode: recurring ? 'subscription' : 'payment',
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: input.currency,
                unit_amount: input.amountCents,
                product_data: { name: `${input.itemName} (${input.marketplaceId} ${input.version})` },
                ...(recurring ? { recurring: { interval: recurring } } : {}),
              },
            },
          ],
          customer_email: input.customerEmail,
          client_reference_id: input.checkoutId,
          metadata,
          ...(recurring ? { subscription_data: { metadata } } : {}),
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

/** What a verified Stripe event tells the marketplace (stripe-events.ts acts on it). */
export type StripeNotice =
  | {
      kind: 'checkout_paid';
      checkoutId: string;
      providerSessionId: string;
      /** `sub_…` for a subscription checkout. */
      subscriptionId: string | null;
      /** `pi_…` for a one-time payment: what a refund refunds. */
      paymentIntent: string | null;
    }
  | {
      kind: 'invoice_paid' | 'invoice_failed';
      invoiceId: string;
      subscriptionId: string;
      billingReason: string | null;
      /** The end of the period the invoice pays for. */
      periodEnd: Date | null;
      amountCents: number;
      currency: string;
    }
  | {
      kind: 'subscription_changed';
      subscriptionId: string;
      status: string;
      cancelAtPeriodEnd: boolean;
      canceledAt: Date | null;
    };

/** Events that mean the money arrived: immediately, or later for delayed payment methods. */
const PAID_EVENTS = new Set(['checkout.session.completed', 'checkout.session.async_payment_succeeded']);

const idOf = (v: string | { id: string } | null | undefined): string | null =>
  typeof v === 'string' ? v : (v?.id ?? null);
const unix = (s: number | null | undefined): Date | null => (typeof s === 'number' ? new Date(s * 1000) : null);

/**
 * Verifies `Stripe-Signature` over the raw body (400 when it does not match or is older than
 * Stripe's 5-minute tolerance on the app clock) and returns what it reports, or null for events
 * that change nothing here (other types, unpaid completions, foreign sessions and invoices).
 */
export function readStripeEvent(
  config: StripeConfig,
  rawBody: Buffer,
  signature: string | undefined,
  now: Date,
): StripeNotice | null {
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
    throw errors.invalid('marketplace_stripe_signature_invalid', { detail: (err as Error).message });
  }
  if (PAID_EVENTS.has(event.type)) {
    const session = event.data.object as Stripe.Checkout.Session;
    if (session.payment_status !== 'paid' && session.payment_status !== 'no_payment_required') return null;
    if (!session.client_reference_id?.startsWith('mcs_')) return null;
    return {
      kind: 'checkout_paid',
      checkoutId: session.client_reference_id,
      providerSessionId: session.id,
      subscriptionId: idOf(session.subscription),
      paymentIntent: idOf(session.payment_intent),
    };
  }
  if (event.type === 'invoice.paid' || event.type === 'invoice.payment_failed') {
    const invoice = event.data.object as Stripe.Invoice;
    const subscriptionId = idOf(invoice.parent?.subscription_details?.subscription);
    if (!subscriptionId || !invoice.id) return null;
    const line = invoice.lines?.data?.[0];
    return {
      kind: event.type === 'invoice.paid' ? 'invoice_paid' : 'invoice_failed',
      invoiceId: invoice.id,
      subscriptionId,
      billingReason: invoice.billing_reason ?? null,
      periodEnd: unix(line?.period?.end),
      amountCents: event.type === 'invoice.paid' ? invoice.amount_paid : invoice.amount_due,
      currency: invoice.currency,
    };
  }
  if (event.type === 'customer.subscription.updated' || event.type === 'customer.subscription.deleted') {
    const sub = event.data.object as Stripe.Subscription;
    return {
      kind: 'subscription_changed',
      subscriptionId: sub.id,
      status: sub.status,
      cancelAtPeriodEnd: sub.cancel_at_period_end,
      canceledAt: unix(sub.canceled_at),
    };
  }
  return null;
}
