import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../platform/db/database.ts';
import { orderEventNames } from '../orders/orders.testing.ts';
import {
  callsSince,
  confirmCard,
  deliverAll,
  startStripeShop,
  stripeCart,
  type StripeShop,
} from './stripe-plugin.testing.ts';
import { PLUGIN_SHOP_SETUP_MS } from '../plugins/plugins.testing.ts';

let s: StripeShop;
beforeAll(async () => {
  s = await startStripeShop();
}, PLUGIN_SHOP_SETUP_MS);
afterAll(() => s?.close());

/** An order of 5000 eur paid through pp_stripe (authorized, Stripe's hold event already delivered). */
async function stripeOrder() {
  const { cart, intentId } = await stripeCart(s);
  await confirmCard(s, intentId);
  const done = await s.t.store('POST', `/store/carts/${cart.id}/complete`);
  expect(done.json().type, done.body).toBe('order');
  await deliverAll(s);
  const order = done.json().order;
  return { order, intentId, paymentId: order.payment_collections[0].payments[0].id as string };
}

const payment = async (id: string) => (await s.t.admin('GET', `/admin/payments/${id}`)).json().payment;
/** What Stripe (the stand-in) refunded of an intent's charge. */
const refundedAtStripe = (intentId: string) => {
  const intent = s.stripe.payments.intents.get(intentId)!;
  return s.stripe.payments.charges.get(intent.latest_charge!)!.amount_refunded;
};
const operations = (paymentId: string) =>
  rows<{ kind: string; amount: number; status: string; error: string | null }>(
    s.t.database.db,
    sql`select kind, amount::int as amount, status, error from payment_operations where payment_id = ${paymentId} order by id`,
  );

describe('the order desk with pp_stripe', () => {
  it('captures part, refunds part, and the stand-in saw one capture and one refund with their idempotency keys', async () => {
    const { order, intentId, paymentId } = await stripeOrder();
    const from = s.stripe.requests.length;
    const captured = await s.t.admin('POST', `/admin/payments/${paymentId}/capture`, { amount: 3000 });
    expect(captured.statusCode, captured.body).toBe(200);
    expect(captured.json().payment).toMatchObject({ captured_amount: 3000, status: 'partially_captured' });
    const refunded = await s.t.admin('POST', `/admin/orders/${order.id}/refunds`, {
      amount: 1000,
      reason: 'scratched',
    });
    expect(refunded.statusCode, refunded.body).toBe(200);
    expect(refunded.json().order.payment_status).toBe('partially_refunded');
    expect(callsSince(s, from)).toEqual([`POST /v1/payment_intents/${intentId}/capture`, 'POST /v1/refunds']);
    const [capture, refund] = s.stripe.requests.slice(from);
    const ops = await rows<{ id: string }>(
      s.t.database.db,
      sql`select id from payment_operations where payment_id = ${paymentId} order by id`,
    );
    expect(capture.headers['idempotency-key']).toBe(ops[0].id);
    expect(capture.form).toEqual({ amount_to_capture: '3000' });
    expect(refund.headers['idempotency-key']).toBe(ops[1].id);
    expect(refund.form).toMatchObject({ payment_intent: intentId, amount: '1000' });
    expect(await operations(paymentId)).toEqual([
      { kind: 'capture', amount: 3000, status: 'succeeded', error: null },
      { kind: 'refund', amount: 1000, status: 'succeeded', error: null },
    ]);

    // Stripe then reports what the shop did: the ledger already has it, nothing is recorded twice.
    const events = await deliverAll(s);
    expect(events.map((e) => e.type)).toEqual(['payment_intent.succeeded', 'charge.refunded']);
    const p = await payment(paymentId);
    expect(p).toMatchObject({ captured_amount: 3000, refunded_amount: 1000 });
    expect(p.captures).toHaveLength(1);
    expect(p.refunds).toHaveLength(1);
    expect(p.refunds[0]).toMatchObject({ amount: 1000, reason: 'scratched' });
  });

  it('a capture Stripe refuses leaves the order as it was and says why', async () => {
    const { order, paymentId } = await stripeOrder();
    await s.t.admin('POST', `/admin/payments/${paymentId}/capture`, { amount: 2000 });
    await deliverAll(s);
    const before = await s.t.admin('GET', `/admin/orders/${order.id}`);
    const events = await orderEventNames(s.t, order.id);
    // Stripe captures an intent once; the second capture is refused there.
    const res = await s.t.admin('POST', `/admin/payments/${paymentId}/capture`, { amount: 1000 });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ type: 'not_allowed', code: 'payment_provider_error' });
    expect(res.json().message).toMatch(
      /^pp_stripe refused: This PaymentIntent could not be captured because it has a status of succeeded/,
    );
    const after = await s.t.admin('GET', `/admin/orders/${order.id}`);
    expect(after.json().order.payment_collections).toEqual(before.json().order.payment_collections);
    expect(after.json().order.payment_status).toBe('partially_captured');
    expect(await orderEventNames(s.t, order.id)).toEqual(events);
    expect((await operations(paymentId)).at(-1)).toMatchObject({ kind: 'capture', amount: 1000, status: 'failed' });
  });

  it('a capture made in Stripe’s dashboard reaches the ledger through the webhook, once', async () => {
    const { order, intentId, paymentId } = await stripeOrder();
    s.stripe.payments.capture(intentId, {});
    const events = await deliverAll(s);
    expect(events.map((e) => e.type)).toEqual(['payment_intent.succeeded']);
    const p = await payment(paymentId);
    expect(p).toMatchObject({ captured_amount: 5000, status: 'captured' });
    expect(p.captures).toHaveLength(1);
    expect(await orderEventNames(s.t, order.id)).toContain('order.paid');
  });

  it('a capture whose answer never came stays pending; repeating it settles it with the same idempotency key', async () => {
    const { paymentId, intentId } = await stripeOrder();
    const timeout = s.t.app.providers.timeoutMs;
    s.t.app.providers.timeoutMs = 300;
    s.stripe.delayNext = 1000;
    try {
      const lost = await s.t.admin('POST', `/admin/payments/${paymentId}/capture`);
      expect(lost.statusCode).toBe(504);
      expect(lost.json()).toMatchObject({ type: 'gateway_timeout', code: 'payment_provider_timeout' });
      expect(await operations(paymentId)).toEqual([{ kind: 'capture', amount: 5000, status: 'pending', error: null }]);
      expect((await payment(paymentId)).captured_amount).toBe(0);
      const other = await s.t.admin('POST', `/admin/payments/${paymentId}/capture`, { amount: 100 });
      expect(other.statusCode).toBe(409);
    } finally {
      s.t.app.providers.timeoutMs = timeout;
    }
    await new Promise((resolve) => setTimeout(resolve, 800)); // the slow answer comes and goes
    expect(s.stripe.payments.intents.get(intentId)!.status).toBe('succeeded'); // Stripe did capture
    const from = s.stripe.requests.length;
    const again = await s.t.admin('POST', `/admin/payments/${paymentId}/capture`);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().payment).toMatchObject({ captured_amount: 5000, status: 'captured' });
    const keys = s.stripe.requests.filter((r) => r.path.endsWith('/capture')).slice(-2);
    expect(keys[0].headers['idempotency-key']).toBe(keys[1].headers['idempotency-key']);
    expect(callsSince(s, from)).toEqual([`POST /v1/payment_intents/${intentId}/capture`]);
    await deliverAll(s);
    expect((await payment(paymentId)).captures).toHaveLength(1);
  });

  it('cancelling an order releases the hold at Stripe; after a partial capture it refunds that part', async () => {
    const held = await stripeOrder();
    const res = await s.t.admin('POST', `/admin/orders/${held.order.id}/cancel`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().order).toMatchObject({ status: 'canceled', payment_status: 'canceled' });
    expect(s.stripe.payments.intents.get(held.intentId)!.status).toBe('canceled');
    expect((await payment(held.paymentId)).canceled_at).not.toBeNull();

    const part = await stripeOrder();
    await s.t.admin('POST', `/admin/payments/${part.paymentId}/capture`, { amount: 3000 });
    const from = s.stripe.requests.length;
    const canceled = await s.t.admin('POST', `/admin/orders/${part.order.id}/cancel`);
    expect(canceled.statusCode, canceled.body).toBe(200);
    expect(canceled.json().order).toMatchObject({ status: 'canceled', payment_status: 'refunded' });
    expect(callsSince(s, from)).toEqual(['POST /v1/refunds', `POST /v1/payment_intents/${part.intentId}/cancel`]);
    expect(await payment(part.paymentId)).toMatchObject({ captured_amount: 3000, refunded_amount: 3000 });
    expect(await orderEventNames(s.t, part.order.id)).toEqual(
      expect.arrayContaining(['order.refunded', 'order.cancelled']),
    );
  });

  it('a capture that lands while a cancellation waits on Stripe: 409, and no refund Stripe did not make', async () => {
    const { order, intentId, paymentId } = await stripeOrder();
    // The cancellation reaches Stripe's cancel; another admin's capture is answered before it.
    const held = s.stripe.hold(new RegExp(`^/v1/payment_intents/${intentId}/cancel`));
    const canceling = s.t.admin('POST', `/admin/orders/${order.id}/cancel`);
    await held.arrived;
    const captured = await s.t.admin('POST', `/admin/payments/${paymentId}/capture`);
    expect(captured.statusCode, captured.body).toBe(200);
    held.release();
    const res = await canceling;

    expect((await payment(paymentId)).refunded_amount).toBe(refundedAtStripe(intentId));
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toEqual({
      type: 'conflict',
      code: 'order_cancel_raced',
      message: 'The order changed while it was being canceled: send the cancellation again',
    });
    const pending = (await s.t.admin('GET', `/admin/orders/${order.id}`)).json().order;
    expect(pending).toMatchObject({ status: 'pending', payment_status: 'captured' });
    expect(await orderEventNames(s.t, order.id)).not.toContain('order.refunded');

    // Sent again, it refunds through Stripe what was captured meanwhile.
    const again = await s.t.admin('POST', `/admin/orders/${order.id}/cancel`);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().order).toMatchObject({ status: 'canceled', payment_status: 'refunded' });
    expect(refundedAtStripe(intentId)).toBe(5000);
    expect((await payment(paymentId)).refunded_amount).toBe(5000);
  });

  it('a capture whose answer never came: cancelling is a 409, with no call to Stripe, until it is settled', async () => {
    const { order, intentId, paymentId } = await stripeOrder();
    const held = s.stripe.hold(new RegExp(`^/v1/payment_intents/${intentId}/capture`));
    const timeout = s.t.app.providers.timeoutMs;
    s.t.app.providers.timeoutMs = 200;
    try {
      const lost = await s.t.admin('POST', `/admin/payments/${paymentId}/capture`);
      expect(lost.statusCode, lost.body).toBe(504);
    } finally {
      s.t.app.providers.timeoutMs = timeout;
    }
    held.release();
    await held.answered; // Stripe captured after all
    const from = s.stripe.requests.length;
    const refused = await s.t.admin('POST', `/admin/orders/${order.id}/cancel`);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().message).toBe(
      "A capture of 5000 is waiting for pp_stripe's answer: repeat it to settle it, then cancel the order",
    );
    expect(callsSince(s, from)).toEqual([]);
    expect((await s.t.admin('GET', `/admin/orders/${order.id}`)).json().order.status).toBe('pending');

    const settled = await s.t.admin('POST', `/admin/payments/${paymentId}/capture`);
    expect(settled.json().payment, settled.body).toMatchObject({ captured_amount: 5000 });
    const canceled = await s.t.admin('POST', `/admin/orders/${order.id}/cancel`);
    expect(canceled.json().order, canceled.body).toMatchObject({ status: 'canceled', payment_status: 'refunded' });
    expect(refundedAtStripe(intentId)).toBe(5000);
    expect((await payment(paymentId)).refunded_amount).toBe(5000);
  });

  it('an uninstalled provider leaves the store at once; its payments get a clear error and one admin notification', async () => {
    const { paymentId } = await stripeOrder();
    const open = await stripeCart(s); // a shopper in the middle of paying
    const del = await s.t.admin('DELETE', `/admin/plugins/${s.pluginId}`);
    expect(del.statusCode, del.body).toBe(200);
    await s.t.app.plugins.settled();
    const listed = await s.t.store('GET', `/store/payment-providers?region_id=${s.region.id}`);
    expect(listed.json()).toMatchObject({ payment_providers: [], count: 0 });
    const completing = await s.t.store('POST', `/store/carts/${open.cart.id}/complete`);
    expect(completing.json()).toMatchObject({
      type: 'cart',
      error: {
        type: 'payment_authorization_error',
        message: 'Payment provider pp_stripe is not available: choose another payment method',
      },
    });
    const admin = (await s.t.admin('GET', '/admin/payments/payment-providers')).json();
    expect(admin.payment_providers.map((p: { id: string }) => p.id)).toEqual(['pp_system_default']);
    for (let i = 0; i < 2; i++) {
      const res = await s.t.admin('POST', `/admin/payments/${paymentId}/capture`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ type: 'not_allowed', code: 'payment_provider_unavailable' });
      expect(res.json().message).toContain('pp_stripe is not installed or not running');
    }
    const notes = (await s.t.admin('GET', '/admin/notifications?type=payment.provider_unavailable')).json();
    expect(notes.count).toBe(1);
    expect(notes.notifications[0].data).toMatchObject({ payment_id: paymentId, provider_id: 'pp_stripe' });
    expect((await payment(paymentId)).captured_amount).toBe(0);
  });
});
