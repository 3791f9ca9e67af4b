import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, testConfig, type TestApp } from '../../../../test/app.ts';
import { startStripeStandIn, type StandInSession, type StripeStandIn } from '../../../../test/stripe-stand-in.ts';
import { startReceiver, type Receiver } from '../../../../test/webhook-receiver.ts';
import { ConfigError } from '../../../platform/config.ts';
import { json, LICENSE_KEY, pay, publishPaid, startCheckout, verify } from './checkout.testing.ts';
import { MARKETPLACE_ENV } from '../marketplace.testing.ts';

const WEBHOOK_SECRET = 'whsec_stand_in_0123456789';
let t: TestApp;
let stripe: StripeStandIn;
let shop: Receiver;

beforeAll(async () => {
  stripe = await startStripeStandIn();
  shop = await startReceiver();
  t = await startTestApp({
    env: {
      ...MARKETPLACE_ENV,
      STRIPE_SECRET_KEY: 'sk_test_stand_in',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE: stripe.url,
    },
  });
});
afterAll(async () => {
  await t.close();
  await stripe.close();
  await shop.close();
});

const now = () => Math.floor(t.clock.now().getTime() / 1000);
const session = async (id: string) => (await json(t, 'GET', `/store/marketplace/checkout/session/${id}`)).json();

/** Posts a Stripe event to our webhook as Stripe does: raw JSON body, Stripe-Signature header. */
function deliver(payload: string, signature: string | null) {
  return t.inject({
    method: 'POST',
    url: '/store/marketplace/stripe/webhook',
    headers: {
      'content-type': 'application/json; charset=utf-8',
      ...(signature === null ? {} : { 'stripe-signature': signature }),
    },
    payload,
  });
}

function event(type: string, s: Partial<StandInSession>, opts: { secret?: string; timestamp?: number } = {}) {
  return stripe.signedEvent({
    type,
    session: s,
    secret: opts.secret ?? WEBHOOK_SECRET,
    timestamp: opts.timestamp ?? now(),
  });
}

/** A checkout opened at the stand-in; returns ours and Stripe's session. */
async function open(body: Record<string, unknown> = {}) {
  const item = await publishPaid(t, '29.90');
  const ours = await startCheckout(t, { marketplace_id: item.marketplace_id, instance_id: 'inst_stripe', ...body });
  const cs = [...stripe.sessions.values()].find((s) => s.client_reference_id === ours.id)!;
  expect(cs).toBeDefined();
  return { item, ours, cs, paid: { ...cs, status: 'complete' as const, payment_status: 'paid' as const } };
}

describe('Stripe Checkout adapter', () => {
  it('creates a Checkout Session with the price in EUR cents and our id as client_reference_id', async () => {
    const before = stripe.requests.length;
    const { item, ours, cs } = await open({ customer_email: 'stripe-buyer@shop.example' });
    expect(ours.url).toBe(cs.url);
    expect(ours.url).toMatch(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_/);
    const req = stripe.requests[before];
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/v1/checkout/sessions');
    expect(req.headers.authorization).toBe('Bearer sk_test_stand_in');
    expect(req.headers['idempotency-key']).toBe(ours.id);
    const statusUrl = `http://market.test/store/marketplace/checkout/session/${ours.id}`;
    expect(req.form).toEqual({
      mode: 'payment',
      'line_items[0][quantity]': '1',
      'line_items[0][price_data][currency]': 'eur',
      'line_items[0][price_data][unit_amount]': '2990',
      'line_items[0][price_data][product_data][name]': `Loyalty points (${item.marketplace_id} 1.0.0)`,
      customer_email: 'stripe-buyer@shop.example',
      client_reference_id: ours.id,
      'metadata[checkout_session_id]': ours.id,
      'metadata[marketplace_id]': item.marketplace_id,
      'metadata[version]': '1.0.0',
      'metadata[instance_id]': 'inst_stripe',
      success_url: statusUrl,
      cancel_url: statusUrl,
      expires_at: String(Math.floor(new Date(ours.expires_at).getTime() / 1000) + 120),
    });
    expect(await session(ours.id)).toMatchObject({ status: 'open', url: cs.url, license_key: null });
    // Not a test-provider session: its hosted page and pay button do not exist.
    expect((await t.inject({ method: 'GET', url: `/store/marketplace/checkout/test/${ours.id}` })).statusCode).toBe(
      404,
    );
    expect((await pay(t, ours.id)).statusCode).toBe(404);
  });

  it('completes on a signed checkout.session.completed, once, however often Stripe delivers it', async () => {
    const { item, ours, paid } = await open({ callback_url: shop.url });
    const e = event('checkout.session.completed', paid);
    const first = await deliver(e.payload, e.signature);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ received: true });
    const done = await session(ours.id);
    expect(done).toMatchObject({
      status: 'paid',
      paid_at: t.clock.now().toISOString(),
      license_key: expect.stringMatching(LICENSE_KEY),
    });

    // Stripe retries, and sends the same event concurrently: same license, no second callback.
    const other = event('checkout.session.completed', paid); // another event about the same payment
    const again = await Promise.all([
      deliver(e.payload, e.signature),
      deliver(e.payload, e.signature),
      deliver(other.payload, other.signature),
    ]);
    expect(again.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect((await session(ours.id)).license_key).toBe(done.license_key);

    const before = shop.requests.length;
    await t.workers.licenseCallbacks.drain();
    await t.workers.licenseCallbacks.drain();
    expect(shop.requests.length - before).toBe(1);
    expect(JSON.parse(shop.requests.at(-1)!.body.toString())).toEqual({
      marketplace_id: item.marketplace_id,
      version: '1.0.0',
      license_key: done.license_key,
      purchased_by: 'buyer@shop.example',
    });

    const verdict = (
      await verify(t, {
        license_key: done.license_key,
        marketplace_id: item.marketplace_id,
        instance_id: 'inst_stripe',
      })
    ).json();
    expect(verdict.valid).toBe(true);
  });

  it('answers 400 to a missing, forged, wrongly keyed or stale signature and changes nothing', async () => {
    const { ours, paid } = await open();
    const good = event('checkout.session.completed', paid);
    const forged = good.signature.replace(/v1=([0-9a-f])/, (_m, c: string) => `v1=${c === '0' ? '1' : '0'}`);
    const otherSecret = event('checkout.session.completed', paid, { secret: 'whsec_someone_else' });
    const stale = event('checkout.session.completed', paid, { timestamp: now() - 301 });
    const tampered = good.payload.replace('"paid"', '"paid" ');
    for (const [payload, signature] of [
      [good.payload, null],
      [good.payload, forged],
      [otherSecret.payload, otherSecret.signature],
      [stale.payload, stale.signature],
      [tampered, good.signature],
      [good.payload, 'garbage'],
    ] as const) {
      const res = await deliver(payload, signature);
      expect(res.statusCode, String(signature)).toBe(400);
      expect(res.json().type).toBe('invalid_data');
      expect(res.json().message).toMatch(/^Stripe webhook signature could not be verified/);
    }
    expect((await session(ours.id)).status).toBe('open');
  });

  it('ignores events that pay nothing of ours, and completes delayed payments when they succeed', async () => {
    const { ours, cs, paid } = await open();
    const ignored = [
      event('checkout.session.expired', { ...cs, status: 'expired' }),
      event('checkout.session.completed', { ...cs, status: 'complete', payment_status: 'unpaid' }),
      event('checkout.session.completed', { ...paid, client_reference_id: 'mcs_01NOTOURS000000000000000000' }),
      event('checkout.session.completed', { ...paid, client_reference_id: null }),
      event('checkout.session.completed', { ...paid, id: 'cs_test_someone_elses' }),
    ];
    for (const e of ignored) {
      const res = await deliver(e.payload, e.signature);
      expect(res.statusCode, e.payload).toBe(200);
    }
    expect((await session(ours.id)).status).toBe('open');

    const later = event('checkout.session.async_payment_succeeded', paid);
    expect((await deliver(later.payload, later.signature)).statusCode).toBe(200);
    expect((await session(ours.id)).status).toBe('paid');
  });

  it('honours a Stripe payment that completes after our 30 minutes (the money was taken)', async () => {
    const { ours, paid } = await open();
    t.clock.advance(31 * 60_000);
    expect((await session(ours.id)).status).toBe('expired');
    const e = event('checkout.session.completed', paid);
    expect((await deliver(e.payload, e.signature)).statusCode).toBe(200);
    expect(await session(ours.id)).toMatchObject({ status: 'paid', license_key: expect.stringMatching(LICENSE_KEY) });
  });

  it('answers 502 when Stripe refuses to open the session, and the session is not payable', async () => {
    const item = await publishPaid(t);
    stripe.failNext = 'Invalid API Key provided';
    const res = await json(t, 'POST', '/store/marketplace/checkout/session', {
      marketplace_id: item.marketplace_id,
      version: '1.0.0',
      customer_email: 'a@b.example',
      instance_id: 'i',
    });
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({
      type: 'bad_gateway',
      code: 'marketplace_provider_failed',
      message: 'The payment provider could not open a checkout; try again later',
    });
  });

  it('requires STRIPE_WEBHOOK_SECRET with STRIPE_SECRET_KEY and a valid STRIPE_API_BASE', () => {
    expect(() => testConfig({ STRIPE_SECRET_KEY: 'sk_test_x' })).toThrow(ConfigError);
    expect(() =>
      testConfig({ STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_x', STRIPE_API_BASE: 'ftp://x' }),
    ).toThrow(ConfigError);
    expect(
      testConfig({
        STRIPE_SECRET_KEY: 'sk_test_x',
        STRIPE_WEBHOOK_SECRET: 'whsec_x',
        STRIPE_API_BASE: 'http://127.0.0.1:4242',
      }).stripe,
    ).toEqual({
      secretKey: 'sk_test_x',
      webhookSecret: 'whsec_x',
      apiBase: { protocol: 'http', host: '127.0.0.1', port: 4242 },
    });
    expect(testConfig().stripe).toBeUndefined();
  });
});
