import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { rows } from '../../platform/db/database.ts';
import { makeRegion } from '../checkout/checkout.testing.ts';
import { adminOk, placeOrder } from '../orders/orders.testing.ts';
import { playAfterSale } from './after-sale-model.testing.ts';

/**
 * The after-sale money model (after-sale-model.testing.ts) on orders paid through the built-in
 * manual provider, whose ledger is the shop's own: its captures and refunds are the provider's
 * record. A difference is paid by the desk (mark as paid) or by the shopper through a payment
 * session of the manual provider, authorized, then captured. The same model against Stripe's
 * ledger: after-sale-money-stripe.test.ts.
 */

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
  await makeRegion(t);
});
afterAll(() => t.close());

const manual = {
  get t() {
    return t;
  },
  async placeOrder() {
    const { order, variants } = await placeOrder(t);
    return { orderId: order.id, lineA: order.items[0].id, variantA: variants[0].id };
  },
  async providerLedger(orderId: string) {
    const [row] = await rows<{ captured: number; refunded: number }>(
      t.database.db,
      sql`select coalesce(sum(captured_amount), 0)::int as captured, coalesce(sum(refunded_amount), 0)::int as refunded
          from payments where order_id = ${orderId}`,
    );
    return row;
  },
  async payDifference(orderId: string, collection: { id: string }, how: number) {
    if (how === 0) {
      await adminOk(t, `/admin/payment-collections/${collection.id}/mark-as-paid`, { order_id: orderId });
      return;
    }
    const session = await t.store('POST', `/store/payment-collections/${collection.id}/payment-sessions`, {
      provider_id: 'pp_system_default',
    });
    if (session.statusCode !== 200) throw new Error(session.body);
    const authorized = await t.store('POST', `/store/payment-collections/${collection.id}/authorize`, {});
    if (authorized.statusCode !== 200) throw new Error(authorized.body);
    const payment = authorized.json().payment_collection.payments[0];
    await adminOk(t, `/admin/payments/${payment.id}/capture`, {});
  },
  afterStep: async () => {},
};

describe('after-sale money adds up (model-based, manual provider)', () => {
  it('holds the ledger, the summary, the stock and the versions after every step', async () => {
    await playAfterSale(manual, {
      runs: Number(process.env.AFTER_SALE_RUNS ?? 15),
      seed: Number(process.env.AFTER_SALE_SEED ?? 3232),
      maxCommands: 8,
    });
  }, 900_000);
});
