import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStripeStandIn, type StripeStandIn } from '../../../test/stripe-stand-in.ts';
import { packExample } from '../marketplace/marketplace.testing.ts';
import { pluginSlug } from '../plugins/plugins.testing.ts';
import { shopAdmin, startPaidWorld, type PaidWorld, shopPluginOf, checkLicenses } from './paid.testing.ts';
import { closeAll } from '../../../test/app.ts';

/**
 * A shop subscribed to a monthly plugin on a marketplace that sells through Stripe (the stand-in):
 * the shop cancels from its admin, and a renewal that fails lets the licence run out, after which
 * the shop's check disables the plugin with plugin.license_failed.
 */
const SECRET = 'whsec_stand_in_federation_subs';
let stripe: StripeStandIn;
let w: PaidWorld;
beforeAll(async () => {
  stripe = await startStripeStandIn();
  w = await startPaidWorld({
    STRIPE_SECRET_KEY: 'sk_test_stand_in',
    STRIPE_WEBHOOK_SECRET: SECRET,
    STRIPE_API_BASE: stripe.url,
  });
}, 180_000);
afterAll(() => closeAll(w, stripe));

async function deliver(type: string, object: unknown) {
  const e = stripe.signed({ type, object, secret: SECRET, timestamp: Math.floor(w.m.clock.now().getTime() / 1000) });
  const res = await w.m.app.inject({
    method: 'POST',
    url: '/store/marketplace/stripe/webhook',
    headers: { 'content-type': 'application/json', 'stripe-signature': e.signature },
    payload: e.payload,
  });
  expect(res.statusCode, res.body).toBe(200);
}

const pluginOf = (mid: string) => shopPluginOf(w.t, mid);

/** Buys a monthly plugin from the shop's admin; the customer pays at Stripe; the plugin is installed. */
async function subscribe() {
  const item = await w.m.publish(await packExample('loyalty-points', { id: pluginSlug('monthly') }), {
    price_eur: '9.90',
    billing: 'monthly',
  });
  const marketplaceId = item.marketplace_id as string;
  const checkout = await shopAdmin(w.t, 'POST', '/admin/marketplace/checkout', {
    marketplace_id: marketplaceId,
    version: '1.0.0',
    customer_email: 'operator@shop.example',
  });
  expect(checkout.statusCode, checkout.body).toBe(200);
  const cs = [...stripe.sessions.values()].find((s) => s.client_reference_id === checkout.json().id)!;
  expect(cs.mode).toBe('subscription');
  const paid = stripe.complete(cs.id, Math.floor(w.m.clock.now().getTime() / 1000));
  await deliver('checkout.session.completed', paid);
  for (const e of stripe.billing.takeEvents()) await deliver(e.type, e.object);
  await w.sender.drain();
  await w.t.app.plugins.settled();
  const plugin = (await pluginOf(marketplaceId))!;
  expect(plugin.status).toBe('installed');
  const sub = stripe.billing.subscriptions.get(paid.subscription!)!;
  return { marketplaceId, plugin, sub, periodEnd: sub.items.data[0].current_period_end * 1000 };
}

const check = () => checkLicenses(w.t);

/** Runs `fn` with the marketplace's clock moved, then puts it back for the next test. */
async function onMarketClock(fn: () => Promise<void>) {
  const start = w.m.clock.now();
  try {
    await fn();
  } finally {
    w.m.clock.set(start);
  }
}

/** Stripe's queued events delivered, the licence still holds; a grace day later the shop disables the plugin as expired. */
async function expectExpiresAfterGraceDay(marketplaceId: string) {
  for (const e of stripe.billing.takeEvents()) await deliver(e.type, e.object);
  await check();
  expect((await pluginOf(marketplaceId))!.status).toBe('installed');
  w.m.clock.advance(24 * 3_600_000);
  await check();
  expect(await pluginOf(marketplaceId)).toMatchObject({ status: 'disabled', error: 'License check failed: expired' });
}

describe('a subscribed plugin on the shop', () => {
  it('is cancelled from the shop: it runs to the end of the paid month, then its licence expires', async () => {
    const { marketplaceId, plugin, sub, periodEnd } = await subscribe();
    const cancel = await shopAdmin(w.t, 'POST', '/admin/marketplace/subscription/cancel', { plugin_id: plugin.id });
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(cancel.json().subscription).toMatchObject({
      plugin_id: plugin.id,
      marketplace_id: marketplaceId,
      status: 'active',
      billing: 'monthly',
      cancel_at_period_end: true,
      current_period_end: new Date(periodEnd).toISOString(),
    });
    expect(stripe.billing.subscriptions.get(sub.id)!.cancel_at_period_end).toBe(true);
    const unknown = await shopAdmin(w.t, 'POST', '/admin/marketplace/subscription/cancel', { plugin_id: 'plg_nope' });
    expect(unknown.statusCode).toBe(404);

    await onMarketClock(async () => {
      // The period ends: Stripe ends the subscription; the grace day still holds.
      w.m.clock.set(new Date(periodEnd + 60_000));
      stripe.billing.end(sub.id, Math.floor(periodEnd / 1000));
      await expectExpiresAfterGraceDay(marketplaceId);
    });
  });

  it('a failed renewal lets the licence run to its period end, then the shop raises plugin.license_failed (expired)', async () => {
    const { marketplaceId, plugin, sub, periodEnd } = await subscribe();
    const failed: { id: string; reason: string }[] = [];
    w.t.workers.bus.on(
      'plugin.license_failed',
      async (e) => void failed.push(e.payload as { id: string; reason: string }),
    );
    await onMarketClock(async () => {
      w.m.clock.set(new Date(periodEnd + 600_000));
      stripe.billing.renew(sub.id, { fail: true });
      await expectExpiresAfterGraceDay(marketplaceId);
      await w.t.workers.dispatcher.drain();
      expect(failed).toContainEqual(expect.objectContaining({ id: plugin.id, reason: 'expired' }));
    });
  });
});
