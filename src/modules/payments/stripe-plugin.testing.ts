import { expect } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import type { QueuedEvent, StandInIntent } from '../../../test/stripe-payment-intents.ts';
import { startStripeStandIn, type StripeStandIn } from '../../../test/stripe-stand-in.ts';
import { makeProduct, makeRegion, uniq } from '../checkout/checkout.testing.ts';
import { packExample } from '../marketplace/marketplace.testing.ts';
import { installAndWait, shopEnv, startMarketplace, type TestMarketplace } from '../plugins/plugins.testing.ts';

/**
 * A shop with the example stripe-payments plugin installed from a real marketplace, configured
 * against the local Stripe stand-in, and a region that offers `pp_stripe` (tests only).
 */

export const SECRET_KEY = 'sk_test_emporium_standin';
export const WEBHOOK_SECRET = 'whsec_emporium_standin_0123456789';

export interface StripeShop {
  t: TestApp;
  m: TestMarketplace;
  stripe: StripeStandIn;
  pluginId: string;
  region: { id: string; countries: { iso_2: string }[] };
  close(): Promise<void>;
}

export async function startStripeShop(): Promise<StripeShop> {
  const stripe = await startStripeStandIn();
  const m = await startMarketplace();
  const t = await startTestApp({ env: shopEnv(m) });
  await m.publish(await packExample('stripe-payments'));
  const plugin = await installAndWait(t, '@acme/stripe-payments');
  expect(plugin.status, plugin.error).toBe('installed');
  const configured = await t.admin('POST', `/admin/plugins/${plugin.id}/configure`, {
    config: { secret_key: SECRET_KEY, webhook_secret: WEBHOOK_SECRET, api_base: stripe.url },
  });
  expect(configured.statusCode, configured.body).toBe(200);
  await t.app.plugins.settled();
  const region = await makeRegion(t);
  const offered = await t.admin('POST', `/admin/regions/${region.id}`, { payment_providers: ['pp_stripe'] });
  expect(offered.statusCode, offered.body).toBe(200);
  return {
    t,
    m,
    stripe,
    pluginId: plugin.id,
    region,
    close: async () => {
      await t.close();
      await m.close();
      await stripe.close();
    },
  };
}

/** A cart in the Stripe region with one line (2 × 2500 eur), with a payment session of pp_stripe. */
export async function stripeCart(s: StripeShop, opts: { stock?: number; quantity?: number } = {}) {
  const { variant } = await makeProduct(s.t, {
    prices: [{ currency_code: 'eur', amount: 2500 }],
    stock: opts.stock ?? 10,
  });
  const created = await s.t.store('POST', '/store/carts', {
    region_id: s.region.id,
    email: `shopper-${uniq()}@example.com`,
    items: [{ variant_id: variant.id, quantity: opts.quantity ?? 2 }],
  });
  expect(created.statusCode, created.body).toBe(200);
  const cart = created.json().cart;
  const pc = (await s.t.store('POST', '/store/payment-collections', { cart_id: cart.id })).json().payment_collection;
  const res = await s.t.store('POST', `/store/payment-collections/${pc.id}/payment-sessions`, {
    provider_id: 'pp_stripe',
  });
  expect(res.statusCode, res.body).toBe(200);
  const session = res.json().payment_collection.payment_sessions[0];
  return { cart, variant, session, intentId: session.data.id as string };
}

/** What stripe.js does in the shopper's browser: confirms the intent with a test card. */
export async function confirmCard(s: StripeShop, intentId: string, card = 'pm_card_visa'): Promise<StandInIntent> {
  const res = await fetch(`${s.stripe.url}/v1/payment_intents/${intentId}/confirm`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ payment_method: card }).toString(),
  });
  expect(res.status).toBe(200);
  return res.json() as Promise<StandInIntent>;
}

/** Posts one event to the shop's webhook route as Stripe does (raw JSON, Stripe-Signature). */
export function deliver(s: StripeShop, e: QueuedEvent, opts: { secret?: string; url?: string } = {}) {
  const { payload, signature } = s.stripe.signed({
    type: e.type,
    object: e.object,
    secret: opts.secret ?? WEBHOOK_SECRET,
    timestamp: Math.floor(Date.now() / 1000),
  });
  return s.t.inject({
    method: 'POST',
    url: opts.url ?? '/hooks/payment/stripe',
    headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature },
    payload,
  });
}

/** Delivers every event the stand-in queued, in order, expecting 200 each. */
export async function deliverAll(s: StripeShop): Promise<QueuedEvent[]> {
  const events = s.stripe.payments.takeEvents();
  for (const e of events) {
    const res = await deliver(s, e);
    expect(res.statusCode, `${e.type}: ${res.body}`).toBe(200);
  }
  return events;
}

/** The stand-in's requests since `from`, as `METHOD /path` (the browser's confirm included). */
export const callsSince = (s: StripeShop, from: number) =>
  s.stripe.requests.slice(from).map((r) => `${r.method} ${r.path.split('?')[0]}`);
