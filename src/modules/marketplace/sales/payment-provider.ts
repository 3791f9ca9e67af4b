import type { Billing } from '../catalog/tables.ts';
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
  /** A recurring billing opens the provider's subscription (charged each period) instead of one payment. */
  billing: Billing;
  customerEmail: string;
  instanceId: string;
  expiresAt: Date;
}

/**
 * A payment provider adapter (stripe-provider.ts, test-payment-provider.ts). It only opens a
 * hosted checkout; completion arrives on a route of its own (the test provider's pay button,
 * Stripe's signed webhook), and both end in completeCheckout(), which issues the license once.
 */
export interface PaymentProvider {
  id: PaymentProviderId;
  createSession(input: CreateSessionInput): Promise<{ providerSessionId: string; url: string }>;
}
