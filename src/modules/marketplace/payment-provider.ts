import type { Config } from '../../platform/config.ts';
import { stripeProvider } from './stripe-provider.ts';
import type { PaymentProviderId } from './tables.ts';

/** What a provider needs to open its hosted checkout for one of our sessions. */
export interface CreateSessionInput {
  /** Our session id (`mcs_…`): the provider hands it back on completion. */
  checkoutId: string;
  marketplaceId: string;
  version: string;
  itemName: string;
  amountCents: number;
  currency: 'eur';
  customerEmail: string;
  instanceId: string;
  expiresAt: Date;
}

/**
 * A payment provider adapter. It only opens a hosted checkout; completion arrives on a route of
 * its own (the test provider's pay button, Stripe's signed webhook), and both end in
 * completeCheckout(), which issues the licence once.
 */
export interface PaymentProvider {
  id: PaymentProviderId;
  createSession(input: CreateSessionInput): Promise<{ providerSessionId: string; url: string }>;
}

/**
 * The built-in test provider: its "hosted page" is served by this marketplace
 * (checkout-pages.routes.ts) and its pay button completes the session without any money moving.
 */
export function testProvider(publicUrl: string): PaymentProvider {
  return {
    id: 'test',
    createSession: async (input) => ({ providerSessionId: input.checkoutId, url: `${publicUrl}/store/marketplace/checkout/test/${input.checkoutId}` }),
  };
}

/** Stripe Checkout when STRIPE_SECRET_KEY is set, the test provider otherwise. */
export function paymentProvider(config: Config): PaymentProvider {
  return config.stripe ? stripeProvider(config.stripe, config.publicUrl) : testProvider(config.publicUrl);
}
