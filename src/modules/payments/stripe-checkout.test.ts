import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProduct, uniq } from '../checkout/checkout.testing.ts';
import {
  callsSince,
  confirmCard,
  deliver,
  deliverAll,
  SECRET_KEY,
  startStripeShop,
  stripeCart,
  type StripeShop,
} from './stripe-plugin.testing.ts';
import { Medusa } from '../../../test/medusa-sdk.ts';
import { PLUGIN_SHOP_SETUP_MS } from '../plugins/plugins.testing.ts';

let s: StripeShop;
let baseUrl: string;
beforeAll(async () => {
  s = await startStripeShop();
  baseUrl = await s.t.app.listen({ host: '127.0.0.1', port: 0 });
}, PLUGIN_SHOP_SETUP_MS);
afterAll(() => s?.close());

const order = async (id: string) => (await s.t.admin('GET', `/admin/orders/${id}`)).json().order;

describe('checkout with the stripe-payments plugin', () => {
  it('runs the Medusa JS SDK payment flow: pp_stripe offered, a PaymentIntent per session, authorized at completion', async () => {
    const sdk = new Medusa({ baseUrl, publishableKey: s.t.publishableKey });
    const { variant } = await makeProduct(s.t, { prices: [{ currency_code: 'eur', amount: 2500 }] });
    const email = `sdk-${uniq()}@example.com`;
    const from = s.stripe.requests.length;

    const { payment_providers } = await sdk.store.payment.listPaymentProviders({ region_id: s.region.id });
    expect(payment_providers.map((p: { id: string }) => p.id)).toEqual(['pp_stripe']);
    let { cart } = await sdk.store.cart.create({ region_id: s.region.id, email });
    ({ cart } = await sdk.store.cart.createLineItem(cart.id, { variant_id: variant.id, quantity: 2 }));
    const { payment_collection } = await sdk.store.payment.initiatePaymentSession(cart, { provider_id: 'pp_stripe' });
    const session = payment_collection.payment_sessions![0];
    expect(session).toMatchObject({ provider_id: 'pp_stripe', status: 'pending', amount: 5000 });
    const intent = s.stripe.payments.intents.get(session.data.id as string)!;
    expect(session.data).toEqual({
      id: intent.id,
      client_secret: intent.client_secret,
      status: 'requires_payment_method',
      amount: 5000,
      currency: 'eur',
    });
    expect(intent).toMatchObject({
      amount: 5000,
      currency: 'eur',
      capture_method: 'manual',
      metadata: { session_id: session.id, cart_id: cart.id },
      receipt_email: email,
    });

    await confirmCard(s, intent.id);
    const done = await sdk.store.cart.complete(cart.id);
    if (done.type !== 'order') throw new Error(`not completed: ${JSON.stringify(done)}`);
    expect(done.order).toMatchObject({ payment_status: 'authorized', total: 5000 });
    const payment = (await order(done.order.id)).payment_collections[0].payments[0];
    expect(payment).toMatchObject({ provider_id: 'pp_stripe', amount: 5000, status: 'authorized' });
    expect(payment.data).toMatchObject({ id: intent.id, status: 'requires_capture' });

    // The stand-in saw what a real Stripe account would, each write with its idempotency key.
    expect(callsSince(s, from)).toEqual([
      'POST /v1/payment_intents',
      `POST /v1/payment_intents/${intent.id}/confirm`,
      `GET /v1/payment_intents/${intent.id}`,
    ]);
    const create = s.stripe.requests[from];
    expect(create.headers.authorization).toBe(`Bearer ${SECRET_KEY}`);
    expect(create.headers['idempotency-key']).toBe(`initiate:${session.id}`);
    expect(create.form).toMatchObject({ amount: '5000', currency: 'eur', capture_method: 'manual' });

    // Stripe's own event about the hold arrives later: the order is already there, nothing changes.
    expect((await deliverAll(s)).map((e) => e.type)).toEqual(['payment_intent.amount_capturable_updated']);
    expect((await order(done.order.id)).payment_collections[0].payments).toHaveLength(1);
    // Privacy: none of this reached the marketplace the plugin came from.
    const told = JSON.stringify(s.m.requests);
    for (const secret of [email, cart.id, done.order.id, intent.id, session.id]) expect(told).not.toContain(secret);
  });

  it('a declined card leaves the cart open with Medusa’s payment_authorization_error', async () => {
    const { cart, session, intentId } = await stripeCart(s);
    await confirmCard(s, intentId, 'pm_card_chargeDeclined');
    const [failed] = await deliverAll(s);
    expect(failed.type).toBe('payment_intent.payment_failed');
    const res = await s.t.store('POST', `/store/carts/${cart.id}/complete`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      type: 'cart',
      cart: { id: cart.id, completed_at: null },
      error: { message: 'Payment authorization failed', name: 'Error', type: 'payment_authorization_error' },
    });
    expect(res.json().cart.payment_collection.payment_sessions[0]).toMatchObject({ id: session.id, status: 'error' });
    expect((await s.t.admin('GET', `/admin/orders?q=${cart.email}`)).json().count).toBe(0);
  });

  it('Stripe’s authorization webhook completes a cart the shopper left after paying; completing again answers that order', async () => {
    const { cart, intentId } = await stripeCart(s);
    await confirmCard(s, intentId);
    await deliverAll(s);
    const placed = await s.t.admin('GET', `/admin/orders?email=${encodeURIComponent(cart.email)}`);
    expect(placed.json().count).toBe(1);
    const again = await s.t.store('POST', `/store/carts/${cart.id}/complete`);
    expect(again.json()).toMatchObject({ type: 'order', order: { id: placed.json().orders[0].id } });
  });

  it('an order refused after the authorization (no stock left) releases the hold at Stripe', async () => {
    const { cart, variant, intentId } = await stripeCart(s, { stock: 2, quantity: 2 });
    await confirmCard(s, intentId);
    s.stripe.payments.takeEvents();
    // Someone else buys the stock in between.
    const other = await s.t.store('POST', '/store/carts', {
      region_id: s.region.id,
      email: 'quick@example.com',
      items: [{ variant_id: variant.id, quantity: 1 }],
    });
    const quick = await stripeCartFor(other.json().cart.id);
    await confirmCard(s, quick);
    expect((await s.t.store('POST', `/store/carts/${other.json().cart.id}/complete`)).json().type).toBe('order');
    const from = s.stripe.requests.length;
    const res = await s.t.store('POST', `/store/carts/${cart.id}/complete`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ type: 'not_allowed', code: 'insufficient_inventory' });
    expect(callsSince(s, from)).toEqual([
      `GET /v1/payment_intents/${intentId}`,
      `POST /v1/payment_intents/${intentId}/cancel`,
    ]);
    expect(s.stripe.payments.intents.get(intentId)!.status).toBe('canceled');
  });

  it('a region that offers only pp_stripe needs a session; one that does not offer it refuses it', async () => {
    const { variant } = await makeProduct(s.t, { prices: [{ currency_code: 'eur', amount: 2500 }] });
    const cart = (
      await s.t.store('POST', '/store/carts', {
        region_id: s.region.id,
        email: 'nosession@example.com',
        items: [{ variant_id: variant.id, quantity: 1 }],
      })
    ).json().cart;
    const res = await s.t.store('POST', `/store/carts/${cart.id}/complete`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      type: 'invalid_data',
      code: 'payment_session_required',
      message: 'Payment sessions are required to complete cart',
    });

    const plain = (await s.t.admin('POST', '/admin/regions', { name: `Plain ${uniq()}`, currency_code: 'eur' })).json()
      .region;
    const listed = await s.t.store('GET', `/store/payment-providers?region_id=${plain.id}`);
    expect(listed.json().payment_providers).toEqual([{ id: 'pp_system_default', is_enabled: true }]);
    const c2 = (await s.t.store('POST', '/store/carts', { region_id: plain.id })).json().cart;
    const pc = (await s.t.store('POST', '/store/payment-collections', { cart_id: c2.id })).json().payment_collection;
    const refused = await s.t.store('POST', `/store/payment-collections/${pc.id}/payment-sessions`, {
      provider_id: 'pp_stripe',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe('Payment providers with ids pp_stripe not found');
  });

  it('a manual session does not complete a cart whose region offers only pp_stripe now (moved, or changed by the operator)', async () => {
    const { variant } = await makeProduct(s.t, { prices: [{ currency_code: 'eur', amount: 2500 }] });
    /** A cart in a fresh region that offers the manual provider, with a pp_system_default session. */
    const manualCart = async () => {
      const plain = (
        await s.t.admin('POST', '/admin/regions', { name: `Plain ${uniq()}`, currency_code: 'eur' })
      ).json().region;
      const cart = (
        await s.t.store('POST', '/store/carts', {
          region_id: plain.id,
          email: `switcher-${uniq()}@example.com`,
          items: [{ variant_id: variant.id, quantity: 1 }],
        })
      ).json().cart;
      const pc = (await s.t.store('POST', '/store/payment-collections', { cart_id: cart.id })).json()
        .payment_collection;
      const res = await s.t.store('POST', `/store/payment-collections/${pc.id}/payment-sessions`, {
        provider_id: 'pp_system_default',
      });
      expect(res.statusCode, res.body).toBe(200);
      return { cart, region: plain, pc };
    };
    const refused = async (cart: { id: string; email: string }) => {
      const res = await s.t.store('POST', `/store/carts/${cart.id}/complete`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        type: 'invalid_data',
        code: 'payment_session_not_offered',
        message:
          "Payment provider pp_system_default is not offered in the cart's region: create a payment session again with POST /store/payment-collections/{id}/payment-sessions",
      });
      expect((await s.t.store('GET', `/store/carts/${cart.id}`)).json().cart.completed_at).toBeNull();
      const orders = await s.t.admin('GET', `/admin/orders?email=${encodeURIComponent(cart.email)}`);
      expect(orders.json().count).toBe(0);
    };

    // The shopper moves the cart to the Stripe region after choosing the manual provider.
    const moved = await manualCart();
    const switched = await s.t.store('POST', `/store/carts/${moved.cart.id}`, { region_id: s.region.id });
    expect(switched.statusCode, switched.body).toBe(200);
    await refused(moved.cart);
    // Paying as the region asks then completes it.
    const again = await s.t.store('POST', `/store/payment-collections/${moved.pc.id}/payment-sessions`, {
      provider_id: 'pp_stripe',
    });
    await confirmCard(s, again.json().payment_collection.payment_sessions[0].data.id);
    const done = await s.t.store('POST', `/store/carts/${moved.cart.id}/complete`);
    expect(done.json()).toMatchObject({ type: 'order', order: { payment_status: 'authorized', total: 2500 } });
    const payment = (await order(done.json().order.id)).payment_collections[0].payments[0];
    expect(payment.provider_id).toBe('pp_stripe');
    s.stripe.payments.takeEvents(); // Stripe's event about that hold: not this test's subject

    // The operator's region stops offering the manual provider while a shopper has its session.
    const kept = await manualCart();
    const changed = await s.t.admin('POST', `/admin/regions/${kept.region.id}`, { payment_providers: ['pp_stripe'] });
    expect(changed.statusCode, changed.body).toBe(200);
    await refused(kept.cart);
  });
});

describe('Stripe webhooks', () => {
  it('refuses a forged or unsigned event (400) and an unknown provider (404), applying nothing', async () => {
    const { intentId } = await stripeCart(s);
    await confirmCard(s, intentId);
    const [event] = s.stripe.payments.takeEvents();
    const forged = await deliver(s, event, { secret: 'whsec_not_the_right_one' });
    expect(forged.statusCode).toBe(400);
    expect(forged.json().type).toBe('invalid_data');
    expect(forged.json().message).toMatch(/^Webhook not accepted by pp_stripe: /);
    const unsigned = await s.t.inject({ method: 'POST', url: '/hooks/payment/stripe', payload: { id: 'evt_1' } });
    expect(unsigned.statusCode).toBe(400);
    const unknown = await deliver(s, event, { url: '/hooks/payment/paypal' });
    expect(unknown.statusCode).toBe(404);
    expect((await s.t.admin('GET', '/admin/orders?limit=1&order=-created_at')).json().orders[0]?.email).not.toBe(
      'never@example.com',
    );
  });

  it('takes the same event at /store/payment-webhooks/pp_stripe without a publishable key, once per event id', async () => {
    const { cart, intentId } = await stripeCart(s);
    await confirmCard(s, intentId);
    const [held] = s.stripe.payments.takeEvents();
    const { payload, signature } = s.stripe.signed({
      type: held.type,
      object: held.object,
      secret: 'whsec_emporium_standin_0123456789',
      timestamp: Math.floor(Date.now() / 1000),
    });
    const post = () =>
      s.t.inject({
        method: 'POST',
        url: '/store/payment-webhooks/pp_stripe',
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
        payload,
      });
    const first = await post();
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ received: true });
    const from = s.stripe.requests.length;
    expect((await post()).statusCode).toBe(200);
    expect(callsSince(s, from)).toEqual([]); // the duplicate was recognised before anything ran
    const orders = (await s.t.admin('GET', `/admin/orders?email=${encodeURIComponent(cart.email)}`)).json();
    expect(orders.count).toBe(1);
  });
});

/** A payment session for an existing cart (the quick buyer above). */
async function stripeCartFor(cartId: string): Promise<string> {
  const pc = (await s.t.store('POST', '/store/payment-collections', { cart_id: cartId })).json().payment_collection;
  const res = await s.t.store('POST', `/store/payment-collections/${pc.id}/payment-sessions`, {
    provider_id: 'pp_stripe',
  });
  return res.json().payment_collection.payment_sessions[0].data.id;
}
