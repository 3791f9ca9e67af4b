import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../platform/db/database.ts';
import { makeProduct, uniq } from '../checkout/checkout.testing.ts';
import { adminOk, adminOrder } from '../orders/orders.testing.ts';
import {
  confirmCard,
  deliver,
  deliverAll,
  startStripeShop,
  type StripeShop,
} from '../payments/stripe-plugin.testing.ts';
import { A_PRICE, playAfterSale, type AfterSaleShop } from './after-sale-model.testing.ts';
import { PLUGIN_SHOP_SETUP_MS } from '../plugins/plugins.testing.ts';

/**
 * The after-sale money model (after-sale-model.testing.ts) on orders paid through the example
 * stripe-payments plugin against the Stripe stand-in: after every step, once every event Stripe
 * queued was delivered to the shop's webhook (so a capture or refund Stripe reports again is never
 * counted twice), what Stripe's charges say was captured and refunded for the order's payment
 * intents equals `paid_total` and `refunded_total`. A difference is paid by the shopper through a
 * Stripe payment session, then either authorized by the storefront and captured by the desk, or
 * captured in Stripe's dashboard and learned from Stripe's webhooks alone.
 */

let s: StripeShop;
beforeAll(async () => {
  s = await startStripeShop();
}, PLUGIN_SHOP_SETUP_MS);
afterAll(() => s?.close());

function storeOk<T>(res: { statusCode: number; body: string; json(): unknown }): T {
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as T;
}
type Collection = { payment_sessions: { data: { id: string } }[]; payments: { id: string }[] };

/** A payment session of pp_stripe on a payment collection, and its intent (confirmed by the shopper's card). */
async function payWithCard(collectionId: string): Promise<string> {
  const started = storeOk<{ payment_collection: Collection }>(
    await s.t.store('POST', `/store/payment-collections/${collectionId}/payment-sessions`, {
      provider_id: 'pp_stripe',
    }),
  );
  const intentId = started.payment_collection.payment_sessions[0].data.id;
  await confirmCard(s, intentId);
  return intentId;
}

const stripe: AfterSaleShop = {
  get t() {
    return s.t;
  },
  async placeOrder() {
    const { variant } = await makeProduct(s.t, { prices: [{ currency_code: 'eur', amount: A_PRICE }], stock: 10 });
    const { cart } = storeOk<{ cart: { id: string } }>(
      await s.t.store('POST', '/store/carts', {
        region_id: s.region.id,
        email: `shopper-${uniq()}@example.com`,
        items: [{ variant_id: variant.id, quantity: 3 }],
      }),
    );
    const { payment_collection: pc } = storeOk<{ payment_collection: { id: string } }>(
      await s.t.store('POST', '/store/payment-collections', { cart_id: cart.id }),
    );
    await payWithCard(pc.id);
    const done = storeOk<{ type: string; order: { id: string; items: { id: string }[] } }>(
      await s.t.store('POST', `/store/carts/${cart.id}/complete`),
    );
    expect(done.type).toBe('order');
    return { orderId: done.order.id, lineA: done.order.items[0].id, variantA: variant.id };
  },
  async providerLedger(orderId) {
    const intents = await rows<{ intent: string }>(
      s.t.database.db,
      sql`select data->>'id' as intent from payments where order_id = ${orderId}`,
    );
    let captured = 0;
    let refunded = 0;
    for (const { intent } of intents) {
      const pi = s.stripe.payments.intents.get(intent);
      expect(pi, `intent ${intent} at Stripe`).toBeDefined();
      const charge = pi?.latest_charge ? s.stripe.payments.charges.get(pi.latest_charge) : undefined;
      captured += charge?.amount_captured ?? 0;
      refunded += charge?.amount_refunded ?? 0;
    }
    return { captured, refunded };
  },
  async payDifference(_orderId, collection, how) {
    const intentId = await payWithCard(collection.id);
    if (how === 0) {
      const authorized = storeOk<{ payment_collection: Collection }>(
        await s.t.store('POST', `/store/payment-collections/${collection.id}/authorize`, {}),
      );
      const payment = authorized.payment_collection.payments[0];
      await adminOk(s.t, `/admin/payments/${payment.id}/capture`, {});
      return;
    }
    // Captured in Stripe's dashboard: the shop learns of it from Stripe's webhooks only.
    s.stripe.payments.capture(intentId, {});
    await deliverAll(s);
  },
  afterStep: async () => {
    await deliverAll(s);
  },
};

describe('an order’s difference paid through Stripe', () => {
  it('payment_intent.succeeded for an exchange’s difference pays the order’s payment collection, once', async () => {
    const { orderId, lineA } = await stripe.placeOrder();
    await adminOk(s.t, `/admin/orders/${orderId}/capture`, {});
    await adminOk(s.t, `/admin/orders/${orderId}/fulfillments`, { items: [{ item_id: lineA, quantity: 3 }] });
    const { variant } = await makeProduct(s.t, { prices: [{ currency_code: 'eur', amount: 2500 }], stock: 5 });
    const { exchange } = await adminOk(s.t, '/admin/exchanges', { order_id: orderId });
    await adminOk(s.t, `/admin/exchanges/${exchange.id}/inbound/items`, { items: [{ id: lineA, quantity: 1 }] });
    await adminOk(s.t, `/admin/exchanges/${exchange.id}/outbound/items`, {
      items: [{ variant_id: variant.id, quantity: 1 }],
    });
    await adminOk(s.t, `/admin/exchanges/${exchange.id}/request`, {});
    await deliverAll(s);
    const owed = await adminOrder(s.t, orderId);
    expect(owed.summary).toMatchObject({ paid_total: 4500, current_order_total: 5500, pending_difference: 1000 });
    const unpaid = owed.payment_collections.find((pc: { status: string }) => pc.status === 'not_paid');
    expect(unpaid).toMatchObject({ amount: 1000, order_id: orderId });

    // The shopper pays by card; the storefront never calls authorize; the money is taken in Stripe.
    const intentId = await payWithCard(unpaid.id);
    s.stripe.payments.capture(intentId, {});
    const events = await deliverAll(s);
    expect(events.map((e) => e.type)).toEqual(['payment_intent.amount_capturable_updated', 'payment_intent.succeeded']);
    const paid = await adminOrder(s.t, orderId);
    expect(paid.summary).toMatchObject({ paid_total: 5500, refunded_total: 0, pending_difference: 0 });
    const collection = paid.payment_collections.find((pc: { id: string }) => pc.id === unpaid.id);
    expect(collection.status).toBe('completed');
    expect(collection.payments).toHaveLength(1);
    expect(collection.payments[0]).toMatchObject({ amount: 1000, captured_amount: 1000, provider_id: 'pp_stripe' });
    expect(await stripe.providerLedger(orderId)).toEqual({ captured: 5500, refunded: 0 });

    // Stripe reports it again (a new event id): nothing is counted twice.
    const again = await deliver(s, events[1]);
    expect(again.statusCode, again.body).toBe(200);
    const after = await adminOrder(s.t, orderId);
    expect(after.summary).toEqual(paid.summary);
    expect(
      after.payment_collections.find((pc: { id: string }) => pc.id === unpaid.id).payments[0].captures,
    ).toHaveLength(1);
  }, 120_000);
});

describe('after-sale money adds up against Stripe’s ledger (model-based, stripe-payments plugin)', () => {
  it('Stripe’s captures and refunds equal paid_total and refunded_total after every step', async () => {
    await playAfterSale(stripe, {
      runs: Number(process.env.AFTER_SALE_STRIPE_RUNS ?? 6),
      seed: Number(process.env.AFTER_SALE_SEED ?? 3232),
      maxCommands: 7,
    });
  }, 300_000);
});
