import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { medusaSdks, type Sdk } from '../../../test/medusa-sdk.ts';
import { rows } from '../../platform/db/database.ts';
import { makeRegion } from '../checkout/checkout.testing.ts';
import { bearer, uniqueEmail, signUpCustomer } from '../customers/customers.testing.ts';
import { adminOk, adminOrder, placeOrder } from '../orders/orders.testing.ts';

let t: TestApp;
let store: Sdk;
let admin: Sdk;

beforeAll(async () => {
  t = await startTestApp();
  await makeRegion(t);
  ({ storefront: store, dashboard: admin } = await medusaSdks(t));
});
afterAll(() => t.close());

async function shopper(email: string) {
  const { customer, token } = await signUpCustomer(t, {}, email);
  return { id: customer.id as string, headers: bearer(token) };
}

/** Everything a refused transfer must leave as it was. */
const state = async (orderId: string) =>
  (
    await rows<Record<string, unknown>>(
      t.database.db,
      sql`select o.customer_id, o.email, o.updated_at,
            (select count(*)::int from order_changes c where c.order_id = o.id) as changes,
            (select count(*)::int from order_versions v where v.order_id = o.id) as versions,
            (select count(*)::int from customers) as customers
          from orders o where o.id = ${orderId}`,
    )
  )[0];

const guestsWith = (email: string) =>
  rows<{ id: string; has_account: boolean }>(
    t.database.db,
    sql`select id, has_account from customers where lower(email) = ${email} and deleted_at is null order by created_at`,
  );

const customerCreated = (id: string) =>
  rows<{ name: string }>(
    t.database.db,
    sql`select name from outbox where name = 'customer.created' and payload->>'id' = ${id}`,
  );

describe('admin order transfer to a guest through the Medusa SDK (transferToGuest)', () => {
  it('moves a customer’s order to a new guest at once: a confirmed transfer change, a new version, the new email', async () => {
    const owner = await shopper(uniqueEmail('owner'));
    const { order } = await placeOrder(t, { email: uniqueEmail('owner-order'), headers: owner.headers });
    expect((await adminOrder(t, order.id)).customer_id).toBe(owner.id);
    const email = uniqueEmail('guest');

    const moved = await admin.admin.order.transferToGuest(order.id, {
      email: email.toUpperCase(),
      description: 'bought as a gift',
      internal_note: 'asked by phone',
    });
    const [guest] = await guestsWith(email);
    expect(guest).toMatchObject({ has_account: false });
    expect(moved.order).toMatchObject({ id: order.id, customer_id: guest.id, email, version: 2 });
    expect(await customerCreated(guest.id)).toHaveLength(1);

    const { order_changes } = await admin.admin.order.listChanges(order.id);
    expect(order_changes).toHaveLength(1);
    expect(order_changes[0]).toMatchObject({
      change_type: 'transfer',
      status: 'confirmed',
      description: 'bought as a gift',
      internal_note: 'asked by phone',
    });
    expect(order_changes[0].actions.map((a) => [a.action, a.reference, a.reference_id, a.details])).toEqual([
      ['TRANSFER_CUSTOMER', 'customer', guest.id, expect.objectContaining({ new_email: email })],
    ]);
    // The version it left keeps the owner.
    const [v1] = await rows<{ customer_id: string }>(
      t.database.db,
      sql`select snapshot->>'customer_id' as customer_id from order_versions where order_id = ${order.id} and version = 1`,
    );
    expect(v1.customer_id).toBe(owner.id);

    // No longer the owner's; now a guest's order, which the store serves by its id.
    const mine = await t.store('GET', '/store/orders', undefined, { headers: owner.headers });
    expect(mine.json().orders.map((o: { id: string }) => o.id)).not.toContain(order.id);
    expect((await t.store('GET', `/store/orders/${order.id}`)).statusCode).toBe(200);

    // Already that guest's: refused, nothing written.
    const before = await state(order.id);
    const again = await t.admin('POST', `/admin/orders/${order.id}/transfer/guest`, { email });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ type: 'invalid_data', code: 'order_transfer_same_customer' });
    expect(again.json().message).toContain(guest.id);
    expect(await state(order.id)).toEqual(before);
  }, 120_000);

  it('reuses the guest an email already has, and the guest may then claim the order with an account', async () => {
    const email = uniqueEmail('known-guest');
    const known = await adminOk(t, '/admin/customers', { email });
    const { order } = await placeOrder(t, { email: uniqueEmail('first') });

    const moved = await admin.admin.order.transferToGuest(order.id, { email });
    expect(moved.order.customer_id).toBe(known.customer.id);
    expect(await guestsWith(email)).toHaveLength(1);
    expect(await customerCreated(known.customer.id)).toHaveLength(1); // the admin create's, none more

    // The guest signs up and claims it through Medusa's storefront transfer.
    const me = await shopper(email);
    await store.store.order.requestTransfer(order.id, {}, {}, me.headers);
    const { order_changes } = await admin.admin.order.listChanges(order.id);
    expect(order_changes.map((c) => [c.change_type, c.status])).toEqual([
      ['transfer', 'confirmed'],
      ['transfer', 'requested'],
    ]);
  }, 120_000);

  it('refuses a guest order moved to its own email, a canceled order, an open change, a bad email and an unknown order', async () => {
    const email = uniqueEmail('guest');
    const { order } = await placeOrder(t, { email });
    let before = await state(order.id);
    const own = await t.admin('POST', `/admin/orders/${order.id}/transfer/guest`, { email: email.toUpperCase() });
    expect(own.statusCode).toBe(400);
    expect(own.json()).toMatchObject({
      type: 'invalid_data',
      code: 'order_transfer_same_customer',
      message: `Order: ${order.id} already belongs to the guest with the email: ${email}`,
    });
    for (const body of [{ email: 'not-an-email' }, {}, { email: uniqueEmail('x'), customer_id: 'cus_1' }]) {
      const bad = await t.admin('POST', `/admin/orders/${order.id}/transfer/guest`, body);
      expect(bad.statusCode, JSON.stringify(body)).toBe(400);
      expect(bad.json()).toMatchObject({ type: 'invalid_data' });
    }
    expect(await state(order.id)).toEqual(before);

    // Another change open (a requested transfer to an account): refused.
    const target = await shopper(uniqueEmail('account'));
    await admin.admin.order.requestTransfer(order.id, { customer_id: target.id });
    before = await state(order.id);
    const busy = await t.admin('POST', `/admin/orders/${order.id}/transfer/guest`, { email: uniqueEmail('other') });
    expect(busy.statusCode).toBe(400);
    expect(busy.json()).toMatchObject({ type: 'not_allowed', code: 'order_change_not_active' });
    expect(await state(order.id)).toEqual(before);
    await admin.admin.order.cancelTransfer(order.id);

    await adminOk(t, `/admin/orders/${order.id}/cancel`, {});
    before = await state(order.id);
    const canceled = await t.admin('POST', `/admin/orders/${order.id}/transfer/guest`, { email: uniqueEmail('late') });
    expect(canceled.statusCode).toBe(400);
    expect(canceled.json()).toMatchObject({ type: 'not_allowed', code: 'order_canceled' });
    expect(await state(order.id)).toEqual(before);

    const missing = await t.admin('POST', '/admin/orders/order_missing/transfer/guest', { email: uniqueEmail('m') });
    expect(missing.statusCode).toBe(404);
  }, 120_000);
});
