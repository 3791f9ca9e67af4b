import { expect } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.ts';
import { startStripeStandIn, type StripeStandIn } from '../../../../test/stripe-stand-in.ts';
import type { JsonObject } from '../../../platform/providers.ts';
import { installMailbox } from '../../auth/auth.testing.ts';
import { MARKETPLACE_ENV, packExample, publish, uniqueSlug } from '../marketplace.testing.ts';
import { signUpVendor, uniqueNamespace } from '../vendors/vendors.testing.ts';
import { admin, json, startCheckout } from './checkout.testing.ts';

/** A marketplace selling through the Stripe stand-in, with vendors (tests only). */
export const WEBHOOK_SECRET = 'whsec_stand_in_billing_0123';

export interface StripeWorld {
  t: TestApp;
  stripe: StripeStandIn;
  sent: JsonObject[];
  close(): Promise<void>;
}

export async function startStripeWorld(): Promise<StripeWorld> {
  const stripe = await startStripeStandIn();
  const t = await startTestApp({
    env: {
      ...MARKETPLACE_ENV,
      STRIPE_SECRET_KEY: 'sk_test_stand_in',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE: stripe.url,
    },
  });
  const sent = installMailbox(t);
  return {
    t,
    stripe,
    sent,
    close: async () => {
      await t.close();
      await stripe.close();
    },
  };
}

const unixNow = (t: TestApp) => Math.floor(t.clock.now().getTime() / 1000);

/** Posts a Stripe event about `object` to the webhook, signed now on the app clock; expects 200. */
export async function deliver(w: StripeWorld, type: string, object: unknown): Promise<void> {
  const e = w.stripe.signed({ type, object, secret: WEBHOOK_SECRET, timestamp: unixNow(w.t) });
  const res = await w.t.inject({
    method: 'POST',
    url: '/store/marketplace/stripe/webhook',
    headers: { 'content-type': 'application/json', 'stripe-signature': e.signature },
    payload: e.payload,
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** Delivers every event the stand-in's billing queued (invoices, subscription changes), in order. */
export async function deliverBilling(w: StripeWorld): Promise<string[]> {
  const events = w.stripe.billing.takeEvents();
  for (const e of events) await deliver(w, e.type, e.object);
  return events.map((e) => e.type);
}

/** A trusted vendor (its uploads skip review) with a commission and, unless told, a payout account. */
export async function vendorOf(w: StripeWorld, opts: { commission?: number; account?: string | null } = {}) {
  const v = await signUpVendor(w.t, w.sent, uniqueNamespace('sell'));
  expect((await admin(w.t, 'POST', `/admin/marketplace/vendors/${v.id}/trust`)).statusCode).toBe(200);
  const res = await admin(w.t, 'POST', `/admin/marketplace/vendors/${v.id}/payouts`, {
    commission_percent: opts.commission ?? 30,
    payout_account: opts.account === undefined ? `acct_${v.namespace.replace(/-/g, '')}` : opts.account,
  });
  expect(res.statusCode, res.body).toBe(200);
  return { ...v, vendor: res.json().vendor };
}

/** Publishes the paid example under the vendor's namespace. */
export async function itemOf(
  w: StripeWorld,
  v: { token: string; namespace: string },
  fields: { price_eur?: string; billing?: string } = {},
): Promise<{ id: string; marketplace_id: string; billing: string }> {
  const res = await publish(
    w.t,
    await packExample('loyalty-points', { id: uniqueSlug('sold'), vendor: v.namespace }),
    { price_eur: '9.90', ...fields },
    { token: v.token },
  );
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().item.versions[0].status).toBe('approved');
  return res.json().item;
}

/** Buys through Stripe Checkout: open, the customer pays at the stand-in, the webhooks arrive. */
export async function buy(w: StripeWorld, marketplaceId: string, instanceId: string) {
  const ours = await startCheckout(w.t, { marketplace_id: marketplaceId, instance_id: instanceId });
  const cs = [...w.stripe.sessions.values()].find((s) => s.client_reference_id === ours.id)!;
  const paid = w.stripe.complete(cs.id, unixNow(w.t));
  await deliver(w, 'checkout.session.completed', paid);
  await deliverBilling(w);
  const key = (await json(w.t, 'GET', `/store/marketplace/checkout/session/${ours.id}`)).json().license_key as string;
  expect(key).toMatch(/^lic_/);
  return { checkoutId: ours.id, key, session: paid };
}
