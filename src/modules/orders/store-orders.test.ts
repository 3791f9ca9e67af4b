import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { makeRegion } from '../checkout/checkout.testing.ts';
import { bearer, signUpCustomer } from '../customers/customers.testing.ts';
import { adminOk, placeOrder } from './orders.testing.ts';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
  await makeRegion(t);
});
afterAll(() => t.close());

describe('store orders', () => {
  it('a customer lists and reads only their own orders, newest first, with progress and no payment ledger', async () => {
    const alice = await signUpCustomer(t);
    const bob = await signUpCustomer(t);
    const a1 = (await placeOrder(t, { headers: bearer(alice.token) })).order;
    const a2 = (await placeOrder(t, { headers: bearer(alice.token), lines: [1, 1] })).order;
    const b1 = (await placeOrder(t, { headers: bearer(bob.token) })).order;
    const guest = (await placeOrder(t, { email: alice.email })).order; // same email, no account: not in her list
    await adminOk(t, `/admin/orders/${a1.id}/capture`);
    await adminOk(t, `/admin/orders/${a1.id}/fulfillments`, { items: [{ item_id: a1.items[0].id, quantity: 1 }] });

    const mine = await t.store('GET', '/store/orders', undefined, { headers: bearer(alice.token) });
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json()).toMatchObject({ count: 2, limit: 20, offset: 0 });
    expect(mine.json().orders.map((o: { id: string }) => o.id)).toEqual([a2.id, a1.id]);
    expect(mine.json().orders.map((o: { id: string }) => o.id)).not.toContain(guest.id);
    const first = mine.json().orders[1];
    expect(first).toMatchObject({
      customer_id: alice.customer.id,
      fulfillment_status: 'partially_fulfilled',
      payment_status: 'captured',
    });
    expect(first.items[0].detail.fulfilled_quantity).toBe(1);
    expect(first.fulfillments).toHaveLength(1);
    expect(first.payment_collections[0].payments[0].captures).toBeUndefined();
    expect(first.summary).toBeUndefined();

    const one = await t.store('GET', `/store/orders/${a1.id}`, undefined, { headers: bearer(alice.token) });
    expect(one.statusCode).toBe(200);
    expect(one.json().order.id).toBe(a1.id);
    for (const id of [b1.id, 'order_nope']) {
      const other = await t.store('GET', `/store/orders/${id}`, undefined, { headers: bearer(alice.token) });
      expect(other.statusCode, id).toBe(404);
      expect(other.json()).toEqual({ type: 'not_found', message: `Order with id: ${id} was not found` });
    }
    const page = await t.store('GET', '/store/orders?limit=1&offset=1', undefined, { headers: bearer(alice.token) });
    expect(page.json().orders.map((o: { id: string }) => o.id)).toEqual([a1.id]);
  });

  it('the list without a customer: 401; an admin token is no customer; no publishable key: 400', async () => {
    await placeOrder(t);
    expect((await t.store('GET', '/store/orders')).statusCode).toBe(401);
    expect((await t.store('GET', '/store/orders', undefined, { headers: bearer(t.adminToken) })).statusCode).toBe(401);
    expect((await t.store('GET', '/store/orders', undefined, { key: null })).statusCode).toBe(400);
  });

  it("a guest's order is served to whoever holds its id, with what the order-confirmed page reads", async () => {
    const { order } = await placeOrder(t, { lines: [2] });
    const fields = '*payment_collections.payments,*items,*items.metadata,*items.variant,*items.product';
    for (const headers of [{}, bearer((await signUpCustomer(t)).token)]) {
      const res = await t.store('GET', `/store/orders/${order.id}?fields=${encodeURIComponent(fields)}`, undefined, {
        headers,
      });
      expect(res.statusCode, res.body).toBe(200);
      const got = res.json().order;
      expect(got).toMatchObject({ id: order.id, display_id: order.display_id, customer_id: null, total: order.total });
      expect(got.email).toMatch(/@example\.com$/);
      expect(got.items[0]).toMatchObject({
        quantity: 2,
        variant: { id: order.items[0].variant_id, title: 'M' },
        product: { title: expect.stringMatching(/^Shirt /) },
      });
      expect(got.items[0].product.id).toBe(got.items[0].product_id);
      expect(got.shipping_methods).toEqual([]);
      // A cart of a one-country region ships there until told otherwise (Medusa's rule); the journey test checks a full checkout's.
      expect(got.shipping_address).toMatchObject({ country_code: expect.any(String), address_1: null });
      expect(got.payment_collections[0].payments[0]).toMatchObject({
        provider_id: 'pp_system_default',
        amount: order.total,
      });
      expect(got.summary).toBeUndefined();
    }
  });

  it("a customer's order stays theirs: a guest or another customer gets 404, as for a missing id", async () => {
    const carol = await signUpCustomer(t);
    const dave = await signUpCustomer(t);
    const { order } = await placeOrder(t, { headers: bearer(carol.token) });
    for (const headers of [{}, bearer(dave.token), bearer(t.adminToken)]) {
      const res = await t.store('GET', `/store/orders/${order.id}`, undefined, { headers });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ type: 'not_found', message: `Order with id: ${order.id} was not found` });
    }
    expect(
      (await t.store('GET', `/store/orders/${order.id}`, undefined, { headers: bearer(carol.token) })).statusCode,
    ).toBe(200);
    const guestList = await t.store('GET', '/store/orders', undefined, { headers: bearer(dave.token) });
    expect(guestList.json().count).toBe(0);
  });
});
