import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { makeRegion } from '../checkout/checkout.testing.ts';
import { bearer, signUpCustomer } from '../customers/customers.testing.ts';
import { statementsOf } from '../../../test/statements.ts';
import { adminOk, adminOrder, placeOrder } from './orders.testing.ts';

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
      expect(other.json()).toEqual({
        code: 'order_not_found',
        type: 'not_found',
        message: `Order with id: ${id} was not found`,
      });
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
      expect(res.json()).toEqual({
        code: 'order_not_found',
        type: 'not_found',
        message: `Order with id: ${order.id} was not found`,
      });
    }
    expect(
      (await t.store('GET', `/store/orders/${order.id}`, undefined, { headers: bearer(carol.token) })).statusCode,
    ).toBe(200);
    const guestList = await t.store('GET', '/store/orders', undefined, { headers: bearer(dave.token) });
    expect(guestList.json().count).toBe(0);
  });

  it("`/store/customers/me?fields=*orders` carries the customer's placed orders with lines and totals, oldest first", async () => {
    const erin = await signUpCustomer(t);
    const other = await signUpCustomer(t);
    const e1 = (await placeOrder(t, { headers: bearer(erin.token) })).order;
    const e2 = (await placeOrder(t, { headers: bearer(erin.token), lines: [1] })).order;
    await placeOrder(t, { headers: bearer(other.token) });
    await placeOrder(t, { email: erin.email }); // a guest's order with her email is not hers
    await adminOk(t, `/admin/orders/${e2.id}/cancel`);

    const plain = await t.store('GET', '/store/customers/me', undefined, { headers: bearer(erin.token) });
    expect(plain.statusCode, plain.body).toBe(200);
    expect(plain.json().customer.orders).toBeUndefined();

    const res = await t.store('GET', `/store/customers/me?fields=${encodeURIComponent('*orders')}`, undefined, {
      headers: bearer(erin.token),
    });
    expect(res.statusCode, res.body).toBe(200);
    const { customer } = res.json();
    expect(customer).toMatchObject({ id: erin.customer.id, email: erin.email, addresses: [] });
    expect(customer.orders.map((o: { id: string }) => o.id)).toEqual([e1.id, e2.id]);
    // As Medusa's Query links them: the order with its items, shipping methods and totals, its
    // version; not its payment collections or fulfillments (the order page's), nor the desk's money
    // (its totals are the desk's: `total` less `credit_line_total`), nor an imported order's external_id.
    const desk = await adminOrder(t, e1.id);
    const {
      payment_collections: _pcs,
      fulfillments: _fs,
      summary: _s,
      transactions: _ts,
      credit_lines: _cl,
      external_id: _external,
      items,
      ...columns
    } = desk;
    expect(customer.orders[0]).toEqual({
      ...columns,
      items: items.map((item: { detail: Record<string, unknown> }) => {
        const { delivered_quantity: _delivered, return_requested_quantity: _requested, ...detail } = item.detail;
        return { ...item, detail };
      }),
      version: 1,
      deleted_at: null,
    });
    expect(customer.orders[0]).toMatchObject({ customer_id: erin.customer.id, total: e1.total, status: 'pending' });
    expect(customer.orders[0].items.map((i: { quantity: number }) => i.quantity)).toEqual([3]);
    expect(customer.orders[1]).toMatchObject({ status: 'canceled', canceled_at: expect.any(String) });

    // A plain name replaces the default shape: only ids (and the named relation's) are left.
    const ids = await t.store('GET', '/store/customers/me?fields=orders.id', undefined, {
      headers: bearer(erin.token),
    });
    expect(ids.json()).toEqual({ customer: { id: erin.customer.id, orders: [{ id: e1.id }, { id: e2.id }] } });

    const none = await t.store('GET', `/store/customers/me?fields=${encodeURIComponent('*orders')}`, undefined, {
      headers: bearer((await signUpCustomer(t)).token),
    });
    expect(none.json().customer.orders).toEqual([]);
    expect((await t.store('GET', `/store/customers/me?fields=${encodeURIComponent('*orders')}`)).statusCode).toBe(401);
  });

  it('the order page and the account read only what they answer (statements counted, not timed)', async () => {
    const frank = await signUpCustomer(t);
    const { order } = await placeOrder(t, { headers: bearer(frank.token), lines: [1, 1] });
    const fields = '*payment_collections.payments,*items,*items.metadata,*items.variant,*items.product';
    const headers = bearer(frank.token);
    const page = () =>
      t.store('GET', `/store/orders/${order.id}?fields=${encodeURIComponent(fields)}`, undefined, { headers });
    const me = () =>
      t.store('GET', `/store/customers/me?fields=${encodeURIComponent('*orders')}`, undefined, { headers });
    await page();
    await me();
    const read = await statementsOf(t.database, page);
    expect(read.result.statusCode, read.result.body).toBe(200);
    // The signed-in customer; the order; its lines, shipping methods, fulfillments; its payments,
    // their collections, the order's own collections, their sessions: 9. Not the captures,
    // refunds and money summary the store does not show (the desk's view reads 12).
    expect(read.statements).toBe(9);
    const account = await statementsOf(t.database, me);
    expect(account.result.json().customer.orders.map((o: { id: string }) => o.id)).toEqual([order.id]);
    // The signed-in customer; the customer; the address book; the orders with their versions;
    // their lines; their shipping methods: 6, however many orders.
    expect(account.statements).toBe(6);
  });
});
