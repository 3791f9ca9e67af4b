import { ConfigError, type Env } from './env.ts';

/** Marketplace role: Stripe Checkout instead of the built-in test payment provider (docs/configuration.md "Marketplace role"). */
export interface StripeConfig {
  secretKey: string;
  /** Verifies the Stripe-Signature of checkout.session.completed events. */
  webhookSecret: string;
  /** Where the Stripe client connects instead of api.stripe.com (tests point it at a local stand-in). */
  apiBase?: { protocol: 'http' | 'https'; host: string; port: number };
}

export function stripeConfig(env: Env): StripeConfig | undefined {
  if (!env.STRIPE_SECRET_KEY) return undefined;
  if (!env.STRIPE_WEBHOOK_SECRET)
    throw new ConfigError(
      'STRIPE_WEBHOOK_SECRET must be set with STRIPE_SECRET_KEY (payments complete through its signed webhook)',
    );
  let apiBase: StripeConfig['apiBase'];
  if (env.STRIPE_API_BASE) {
    const url = URL.canParse(env.STRIPE_API_BASE) ? new URL(env.STRIPE_API_BASE) : null;
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
      throw new ConfigError(`STRIPE_API_BASE must be an http(s) URL, got "${env.STRIPE_API_BASE}"`);
    const protocol = url.protocol === 'http:' ? 'http' : 'https';
    apiBase = { protocol, host: url.hostname, port: Number(url.port) || (protocol === 'http' ? 80 : 443) };
  }
  return { secretKey: env.STRIPE_SECRET_KEY, webhookSecret: env.STRIPE_WEBHOOK_SECRET, apiBase };
}
