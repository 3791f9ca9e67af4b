import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { medusaSdks, type Sdk } from '../../../test/medusa-sdk.ts';
import { decryptSecret } from '../../platform/crypto.ts';
import { rows } from '../../platform/db/database.ts';
import { makeRegion } from '../checkout/checkout.testing.ts';
import { bearer, uniqueEmail, signUpCustomer } from '../customers/customers.testing.ts';
import { adminOrder, orderEventNames, placeOrder } from '../orders/orders.testing.ts';

let t: TestApp;
let store: Sdk;
let admin: Sdk;

beforeAll(async () => {
  t = await startTestApp();
  await makeRegion(t);
  ({ storefront: store, dashboard: admin } = await medusaSdks(t));
});
afterAll(() => t.close());

/** A shopper with an account under `email`: their customer id and bearer headers. */
async function shopper(email: string) {
  const { customer, token } = await signUpCustomer(t, {}, email);
  return { id: customer.id as string, headers: bearer(token) };
}

/** The token mailed for the order's latest transfer request (as the notification provider would send it). */
async function mailedToken(orderId: string, to: string): Promise<string> {
  const [row] = await rows<{ to: string; secret_data: string }>(
    t.database.db,
    sql`select "to", secret_data from notification_deliveries
        where template = 'order.transfer_requested' and resource_id = ${orderId} order by created_at desc, id desc limit 1`,
  );
  expect(row.to).toBe(to);
  return JSON.parse(decryptSecret(t.config.encryptionKey, row.secret_data)).transfer_token;
}

const state = async (orderId: string) =>
  (
    await rows<Record<string, unknown>>(
      t.database.db,
      sql`select o.customer_id, (select json_agg(json_build_array(c.change_type, c.status) order by c.created_at)
            from order_changes c where c.order_id = o.id) as changes,
            (select count(*)::int from order_versions v where v.order_id = o.id) as versions,
            (select count(*)::int from audit_log a where a.resource_id = o.id) as audits
          from orders o where o.id = ${orderId}`,
    )
  )[0];

describe('order transfers through the Medusa SDK', () => {
  it('a signed-in shopper claims a guest order placed with their email: request, mailed token, accept', async () => {
    const email = uniqueEmail('guest');
    const { order } = await placeOrder(t, { email });
    const me = await shopper(email);

    const asked = await store.store.order.requestTransfer(order.id, { description: 'mine' }, {}, me.headers);
    expect(asked.order.id).toBe(order.id);
    expect(await orderEventNames(t, order.id)).toContain('order.transfer_requested');
    const token = await mailedToken(order.id, email);

    // Wrong token: refused, nothing written.
    const before = await state(order.id);
    const wrong = await t.store('POST', `/store/orders/${order.id}/transfer/accept`, { token: 'not-the-token' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ type: 'invalid_data' });
    expect(await state(order.id)).toEqual(before);

    const accepted = await store.store.order.acceptTransfer(order.id, { token });
    expect(accepted.order.customer_id).toBe(me.id);
    const detail = await adminOrder(t, order.id);
    expect(detail).toMatchObject({ customer_id: me.id, version: 2 });
    const { order_changes } = await admin.admin.order.listChanges(order.id);
    expect(order_changes.map((c) => [c.change_type, c.status, c.requested_by])).toEqual([
      ['transfer', 'confirmed', me.id],
    ]);
    expect(order_changes[0].actions.map((a) => [a.action, a.reference_id])).toEqual([['TRANSFER_CUSTOMER', me.id]]);
    // Now theirs: listed, and the token is spent.
    const mine = await t.store('GET', '/store/orders', undefined, { headers: me.headers });
    expect(mine.json().orders.map((o: { id: string }) => o.id)).toContain(order.id);
    const again = await t.store('POST', `/store/orders/${order.id}/transfer/accept`, { token });
    expect(again.statusCode).toBe(400);
  }, 120_000);

  it('refuses a stranger, an unsigned request and a registered owner’s order; decline and cancel write what they should', async () => {
    const email = uniqueEmail('guest');
    const { order } = await placeOrder(t, { email });
    const stranger = await shopper(uniqueEmail('stranger'));
    const before = await state(order.id);
    const notMine = await t.store(
      'POST',
      `/store/orders/${order.id}/transfer/request`,
      {},
      { headers: stranger.headers },
    );
    expect(notMine.statusCode).toBe(404);
    const unsigned = await t.store('POST', `/store/orders/${order.id}/transfer/request`, {});
    expect(unsigned.statusCode).toBe(401);
    expect(await state(order.id)).toEqual(before);

    // Declined with the token: the order stays the guest's.
    const me = await shopper(email);
    await store.store.order.requestTransfer(order.id, {}, {}, me.headers);
    const twice = await t.store('POST', `/store/orders/${order.id}/transfer/request`, {}, { headers: me.headers });
    expect(twice.statusCode).toBe(400);
    await store.store.order.declineTransfer(order.id, { token: await mailedToken(order.id, email) });
    expect((await state(order.id)).changes).toEqual([['transfer', 'declined']]);
    expect((await adminOrder(t, order.id)).customer_id).toBeNull();

    // Cancelled by the one who asked (a stranger's cancel is a 404).
    await store.store.order.requestTransfer(order.id, {}, {}, me.headers);
    const foreign = await t.store(
      'POST',
      `/store/orders/${order.id}/transfer/cancel`,
      {},
      { headers: stranger.headers },
    );
    expect(foreign.statusCode).toBe(404);
    await store.store.order.cancelTransfer(order.id, {}, me.headers);
    expect((await state(order.id)).changes).toEqual([
      ['transfer', 'declined'],
      ['transfer', 'canceled'],
    ]);

    // Once it belongs to an account, no one else claims it, even with the same email.
    const owned = await placeOrder(t, { email, headers: me.headers });
    const again = await t.store(
      'POST',
      `/store/orders/${owned.order.id}/transfer/request`,
      {},
      { headers: me.headers },
    );
    expect(again.statusCode).toBe(400);
  }, 120_000);

  it('an operator requests the transfer to a customer; the order’s email accepts it', async () => {
    const email = uniqueEmail('guest');
    const { order } = await placeOrder(t, { email });
    const target = await shopper(uniqueEmail('account'));
    const guest = await t.admin('POST', '/admin/customers', { email: uniqueEmail('noaccount') });
    const refused = await t.admin('POST', `/admin/orders/${order.id}/transfer`, {
      customer_id: guest.json().customer.id,
    });
    expect(refused.statusCode).toBe(400);

    const asked = await admin.admin.order.requestTransfer(order.id, { customer_id: target.id });
    expect(asked.order.id).toBe(order.id);
    const { order_changes } = await admin.admin.order.listChanges(order.id);
    expect(order_changes.map((c) => [c.change_type, c.status])).toEqual([['transfer', 'requested']]);
    await store.store.order.acceptTransfer(order.id, { token: await mailedToken(order.id, email) });
    expect((await adminOrder(t, order.id)).customer_id).toBe(target.id);
    const withdrawn = await t.admin('POST', `/admin/orders/${order.id}/transfer/cancel`, {});
    expect(withdrawn.statusCode).toBe(400);
  }, 120_000);
});
