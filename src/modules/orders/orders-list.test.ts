import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { makeRegion, uniq } from '../checkout/checkout.testing.ts';
import { adminOk, placeOrder } from './orders.testing.ts';

let t: TestApp;
let region: { id: string };

beforeAll(async () => {
  t = await startTestApp();
  region = await makeRegion(t);
});
afterAll(() => t.close());

const ids = (res: { json(): { orders: { id: string }[] } }) => res.json().orders.map((o) => o.id);
const list = (query: string) => t.admin('GET', `/admin/orders?${query}`);

/** Orders whose emails share a tag, so `q=<tag>` isolates them from other tests' orders. */
async function taggedOrders(n: number, tag = uniq()) {
  const placed = [];
  for (let i = 0; i < n; i++)
    placed.push((await placeOrder(t, { email: `o${'abcdefghij'[i]}-${tag}@example.com`, lines: [1] })).order);
  return { tag, orders: placed };
}

describe('GET /admin/orders', () => {
  it('lists summaries, oldest first, default limit 15', async () => {
    const { tag, orders } = await taggedOrders(2);
    const res = await list(`q=${tag}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ count: 2, limit: 15, offset: 0 });
    expect(ids(res)).toEqual(orders.map((o) => o.id));
    const [first] = res.json().orders;
    expect(first).toMatchObject({
      id: orders[0].id,
      display_id: orders[0].display_id,
      status: 'pending',
      payment_status: 'authorized',
      fulfillment_status: 'not_fulfilled',
      total: 1500,
      currency_code: 'eur',
      region_id: region.id,
    });
    expect(first.items).toBeUndefined();
    expect(first.payment_collections).toBeUndefined();
  });

  it('filters by status, payment_status and fulfillment_status, each one or many', async () => {
    const {
      tag,
      orders: [plain, paid, shipped, canceled],
    } = await taggedOrders(4);
    await adminOk(t, `/admin/orders/${paid.id}/capture`);
    await adminOk(t, `/admin/orders/${shipped.id}/fulfillments`, {
      items: [{ item_id: shipped.items[0].id, quantity: 1 }],
    });
    await adminOk(t, `/admin/orders/${canceled.id}/cancel`);
    expect(ids(await list(`q=${tag}&status=canceled`))).toEqual([canceled.id]);
    expect(ids(await list(`q=${tag}&status[]=pending`))).toEqual([plain.id, paid.id, shipped.id]);
    expect(ids(await list(`q=${tag}&payment_status=captured`))).toEqual([paid.id]);
    expect(ids(await list(`q=${tag}&payment_status[]=captured&payment_status[]=canceled`))).toEqual([
      paid.id,
      canceled.id,
    ]);
    expect(ids(await list(`q=${tag}&fulfillment_status=fulfilled`))).toEqual([shipped.id]);
    expect(ids(await list(`q=${tag}&fulfillment_status[0]=not_fulfilled&fulfillment_status[1]=canceled`))).toEqual([
      plain.id,
      paid.id,
      canceled.id,
    ]);
    const bad = await list('status=shipped');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().type).toBe('invalid_data');
    expect((await list('payment_status[]=paid')).statusCode).toBe(400);
  });

  it('filters by email (any case), customer_id, id, region_id', async () => {
    const tag = uniq();
    const { order } = await placeOrder(t, { email: `Mixed.${tag}@Example.com` });
    expect(ids(await list(`email=MIXED.${tag}@example.COM`))).toEqual([order.id]);
    expect(ids(await list(`email=other.${tag}@example.com`))).toEqual([]);
    expect(ids(await list(`id=${order.id}`))).toEqual([order.id]);
    expect(ids(await list(`id[]=${order.id}&region_id=${region.id}`))).toEqual([order.id]);
    expect(ids(await list(`id=${order.id}&region_id=reg_other`))).toEqual([]);
    expect(ids(await list(`customer_id=cus_nobody`))).toEqual([]);
  });

  it('q matches part of the email, the display id, or the start of the order id', async () => {
    // Digit-free emails, so a display id matches no email.
    const {
      tag,
      orders: [a, b],
    } = await taggedOrders(2, uniq().replace(/\d/g, 'k'));
    expect(ids(await list(`q=${tag.toUpperCase()}`))).toEqual([a.id, b.id]);
    expect(ids(await list(`q=${b.display_id}&id[]=${a.id}&id[]=${b.id}`))).toEqual([b.id]);
    expect(ids(await list(`q=${a.id}`))).toEqual([a.id]);
    expect(ids(await list(`q=${encodeURIComponent('%')}&id=${a.id}`))).toEqual([]);
  });

  it("created_at range with gte/lte and Medusa's $gte/$lt, on the app clock", async () => {
    const tag = uniq();
    // Hours apart (admin tokens outlive the test): early, middle, late.
    const at: string[] = [];
    const placed: string[] = [];
    for (const name of ['early', 'middle', 'late']) {
      t.clock.advance(2 * 3600_000);
      at.push(t.clock.now().toISOString());
      placed.push((await placeOrder(t, { email: `${name}-${tag}@example.com` })).order.id);
    }
    const [early, middle, late] = placed;
    const hourAfter = (iso: string) => new Date(Date.parse(iso) + 3600_000).toISOString();
    expect(ids(await list(`q=${tag}&created_at[gte]=${at[1]}`))).toEqual([middle, late]);
    expect(ids(await list(`q=${tag}&created_at[lte]=${at[1]}`))).toEqual([early, middle]);
    expect(ids(await list(`q=${tag}&created_at[gte]=${hourAfter(at[0])}&created_at[lte]=${hourAfter(at[1])}`))).toEqual(
      [middle],
    );
    expect(ids(await list(`q=${tag}&created_at[$gte]=${hourAfter(at[0])}&created_at[$lt]=${at[2]}`))).toEqual([middle]);
    expect(ids(await list(`q=${tag}&created_at[gt]=${at[2]}`))).toEqual([]);
    // A bare date is midnight UTC: every order here came later that day or after.
    expect(ids(await list(`q=${tag}&created_at[lt]=${at[0].slice(0, 10)}`))).toEqual([]);
    const bad = await list('created_at[gte]=not-a-date');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('created_at.gte');
    expect((await list('created_at[since]=2031-01-01')).statusCode).toBe(400);
  });

  it('sorts with order=<field> or -<field>; an unknown field is a 400', async () => {
    const { tag, orders } = await taggedOrders(3);
    expect(ids(await list(`q=${tag}&order=-display_id`))).toEqual(orders.map((o) => o.id).reverse());
    expect(ids(await list(`q=${tag}&order=created_at`))).toEqual(orders.map((o) => o.id));
    const bad = await list('order=password');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({
      code: 'order_sort_field_invalid',
      type: 'invalid_data',
      message: 'Order field password is not valid',
    });
  });

  it('pagination edges: limit 0, offset past the end, limit clamped to 1000, negative is a 400', async () => {
    const { tag, orders } = await taggedOrders(3);
    const zero = await list(`q=${tag}&limit=0`);
    expect(zero.json()).toMatchObject({ orders: [], count: 3, limit: 0, offset: 0 });
    const page = await list(`q=${tag}&limit=2&offset=1`);
    expect(ids(page)).toEqual([orders[1].id, orders[2].id]);
    const past = await list(`q=${tag}&offset=10`);
    expect(past.json()).toMatchObject({ orders: [], count: 3, offset: 10 });
    expect((await list(`q=${tag}&limit=5000`)).json().limit).toBe(1000);
    expect((await list('limit=-1')).statusCode).toBe(400);
    expect((await list('offset=abc')).statusCode).toBe(400);
  });

  it('auth: 401 without a token; a viewer may read', async () => {
    expect((await t.inject({ method: 'GET', url: '/admin/orders' })).statusCode).toBe(401);
    expect((await t.admin('GET', '/admin/orders', undefined, { token: t.viewerToken })).statusCode).toBe(200);
  });
});

describe('GET /admin/orders/{id}', () => {
  it('the whole order: items with progress, totals, shipping methods, payments, fulfillments, addresses', async () => {
    const { order, paymentId } = await placeOrder(t, { lines: [2, 1] });
    await adminOk(t, `/admin/payments/${paymentId}/capture`, { amount: 1000 });
    await adminOk(t, `/admin/orders/${order.id}/fulfillments`, {
      items: [{ item_id: order.items[0].id, quantity: 1 }],
    });
    const res = await t.admin('GET', `/admin/orders/${order.id}`, undefined, { token: t.viewerToken });
    expect(res.statusCode, res.body).toBe(200);
    const o = res.json().order;
    expect(o).toMatchObject({
      id: order.id,
      display_id: order.display_id,
      status: 'pending',
      payment_status: 'partially_captured',
      fulfillment_status: 'partially_fulfilled',
      customer_id: null,
      item_total: 4500,
      shipping_total: 0,
      total: 4500,
      subtotal: 4500,
      shipping_methods: [],
      // A one-country region's cart is addressed to that country from its creation (taxed at once).
      shipping_address: expect.objectContaining({ country_code: expect.any(String), address_1: null }),
      billing_address: null,
    });
    expect(o.email).toMatch(/^buyer-/);
    expect(o.items.map((i: { detail: unknown }) => i.detail)).toEqual([
      {
        quantity: 2,
        fulfilled_quantity: 1,
        shipped_quantity: 0,
        delivered_quantity: 0,
        returned_quantity: 0,
        return_requested_quantity: 0,
      },
      {
        quantity: 1,
        fulfilled_quantity: 0,
        shipped_quantity: 0,
        delivered_quantity: 0,
        returned_quantity: 0,
        return_requested_quantity: 0,
      },
    ]);
    expect(o.payment_collections).toHaveLength(1);
    expect(o.payment_collections[0]).toMatchObject({ amount: 4500, status: 'partially_captured' });
    expect(o.payment_collections[0].payments[0]).toMatchObject({
      id: paymentId,
      amount: 4500,
      currency_code: 'eur',
      captured_at: null,
      captures: [expect.objectContaining({ amount: 1000 })],
      refunds: [],
    });
    expect(o.fulfillments).toHaveLength(1);
    expect(o.summary).toEqual({
      authorized_total: 4500,
      captured_total: 1000,
      refunded_total: 0,
      paid_total: 1000,
      transaction_total: 1000,
      original_order_total: 4500,
      current_order_total: 4500,
      accounting_total: 4500,
      credit_line_total: 0,
      pending_difference: 3500,
    });
  });

  it('404 for an unknown id, 400 for an over-long one', async () => {
    const res = await t.admin('GET', '/admin/orders/order_nope');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      code: 'order_not_found',
      type: 'not_found',
      message: 'Order with id: order_nope was not found',
    });
    expect((await t.admin('GET', `/admin/orders/${'x'.repeat(300)}`)).statusCode).toBe(400);
  });
});
