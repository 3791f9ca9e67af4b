import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, startTestApp, type TestApp } from '../../../test/app.ts';
import { defaultChannelId, makeProduct, makeRegion, stockOf, uniq } from '../checkout/checkout.testing.ts';
import { adminOrder, orderEventNames } from './orders.testing.ts';

let t: TestApp;
let region: { id: string };
let channel: string;
let variant: { id: string };

beforeAll(async () => {
  t = await startTestApp();
  region = await makeRegion(t);
  channel = await defaultChannelId(t);
  variant = (await makeProduct(t)).variant;
});
afterAll(() => t.close());

const address = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  address_1: '1 Old Road',
  city: 'Berlin',
  country_code: 'DE',
};

/** An order as another shop would export it: one line by variant, one by title alone, and shipping. */
const anOrder = (over: Record<string, unknown> = {}) => ({
  external_id: `old-${uniq()}`,
  email: `imported-${uniq()}@example.com`,
  region_id: region.id,
  currency_code: 'eur',
  sales_channel_id: channel,
  created_at: '2024-03-01T10:00:00.000Z',
  shipping_address: address,
  billing_address: address,
  items: [
    { variant_id: variant.id, quantity: 2, unit_price: 1250 },
    { title: 'Gift wrap', quantity: 1, unit_price: 300, sku: 'WRAP-1' },
  ],
  shipping_methods: [{ name: 'Standard', amount: 500 }],
  ...over,
});

const importing = (orders: unknown[]) => t.admin('POST', '/admin/orders/import', { orders });

describe('POST /admin/orders/import', () => {
  it('writes orders as they were: lines, totals, payment, fulfilment, at their own time, with new display ids', async () => {
    const stock = await stockOf(t, variant.id);
    const sent = [anOrder(), anOrder({ fulfillment_status: 'delivered', payment_status: 'refunded' })];
    const res = await importing(sent);
    expect(res.statusCode, res.body).toBe(200);
    const { imported, skipped } = res.json();
    expect(skipped).toEqual([]);
    expect(imported.map((o: { external_id: string }) => o.external_id)).toEqual(sent.map((o) => o.external_id));
    expect(imported[1].display_id).toBe(imported[0].display_id + 1);

    const first = await adminOrder(t, imported[0].id);
    expect(first).toMatchObject({
      display_id: imported[0].display_id,
      external_id: sent[0].external_id,
      status: 'completed',
      payment_status: 'captured',
      fulfillment_status: 'not_fulfilled',
      email: sent[0].email,
      sales_channel_id: channel,
      currency_code: 'eur',
      item_total: 2800,
      shipping_total: 500,
      total: 3300,
      created_at: '2024-03-01T10:00:00.000Z',
      shipping_address: { first_name: 'Ada', city: 'Berlin', country_code: 'de' },
    });
    expect(
      first.items.map((i: { title: string; quantity: number; variant_id: string | null }) => [
        i.variant_id,
        i.quantity,
      ]),
    ).toEqual([
      [variant.id, 2],
      [null, 1],
    ]);
    expect(first.items[1]).toMatchObject({ title: 'Gift wrap', variant_sku: 'WRAP-1', unit_price: 300 });
    expect(first.payment_collections[0].payments[0]).toMatchObject({
      amount: 3300,
      captured_amount: 3300,
      provider_id: 'pp_system_default',
    });

    const second = await adminOrder(t, imported[1].id);
    expect(second).toMatchObject({ payment_status: 'refunded', fulfillment_status: 'delivered' });
    expect(second.fulfillments).toHaveLength(1);
    expect(second.fulfillments[0].items.map((i: { quantity: number }) => i.quantity)).toEqual([2, 1]);

    // History: no stock taken, no order.placed to mail a customer about.
    expect(await stockOf(t, variant.id)).toBe(stock);
    expect(await orderEventNames(t, imported[0].id)).toEqual([]);
  });

  it('is found by the order desk: list filters, q, and the customer with that email', async () => {
    const tag = uniq();
    const customer = await t.admin('POST', '/admin/customers', { email: `buyer-${tag}@example.com` });
    expect(customer.statusCode, customer.body).toBe(200);
    const res = await importing([
      anOrder({ email: `Buyer-${tag}@Example.com` }),
      anOrder({ email: `other-${tag}@example.com`, status: 'canceled', payment_status: 'canceled' }),
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const [mine, canceled] = res.json().imported;
    expect((await adminOrder(t, mine.id)).customer_id).toBe(customer.json().customer.id);
    const list = await t.admin('GET', `/admin/orders?q=${tag}&status=canceled`);
    expect(list.json().orders.map((o: { id: string }) => o.id)).toEqual([canceled.id]);
    expect(list.json().orders[0]).toMatchObject({
      payment_status: 'canceled',
      status: 'canceled',
      external_id: expect.stringMatching(/^old-/),
    });
    const byCustomer = await t.admin('GET', `/admin/orders?customer_id=${customer.json().customer.id}`);
    expect(byCustomer.json().orders.map((o: { id: string }) => o.id)).toEqual([mine.id]);
  });

  it('takes desk actions afterwards: an authorized one (paid on invoice) is captured, then fulfilled', async () => {
    const res = await importing([anOrder({ status: 'pending', payment_status: 'authorized' })]);
    expect(res.statusCode, res.body).toBe(200);
    const { id } = res.json().imported[0];
    expect(await adminOrder(t, id)).toMatchObject({ payment_status: 'authorized', status: 'pending' });
    const captured = await t.admin('POST', `/admin/orders/${id}/capture`, {});
    expect(captured.statusCode, captured.body).toBe(200);
    expect(captured.json().order.payment_status).toBe('captured');
    const items = captured.json().order.items.map((i: { id: string; quantity: number }) => ({
      item_id: i.id,
      quantity: i.quantity,
    }));
    const fulfilled = await t.admin('POST', `/admin/orders/${id}/fulfillments`, { items });
    expect(fulfilled.statusCode, fulfilled.body).toBe(200);
    expect(fulfilled.json().order.fulfillment_status).toBe('fulfilled');
  });

  it('skips an order whose external_id was imported before, so a request sent again adds nothing twice', async () => {
    const once = anOrder();
    const first = await importing([once]);
    expect(first.statusCode, first.body).toBe(200);
    const again = await importing([once, anOrder()]);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().skipped).toEqual(first.json().imported);
    expect(again.json().imported).toHaveLength(1);
    const found = await t.admin('GET', `/admin/orders?q=${once.email}`);
    expect(found.json().count).toBe(1);
  });

  it('refuses the whole request, naming the order, when one order is wrong; nothing is written', async () => {
    const tag = uniq();
    const good = anOrder({ email: `good-${tag}@example.com` });
    const cases: [unknown, string][] = [
      [anOrder({ region_id: 'reg_missing' }), 'order_import_region_not_found'],
      [anOrder({ currency_code: 'usd' }), 'order_import_currency_not_region'],
      [anOrder({ sales_channel_id: 'sc_missing' }), 'order_import_channel_not_found'],
      [anOrder({ customer_id: 'cus_missing' }), 'order_import_customer_not_found'],
      [
        anOrder({ items: [{ variant_id: 'variant_missing', quantity: 1, unit_price: 1 }] }),
        'order_import_variant_not_found',
      ],
      [anOrder({ items: [{ quantity: 1, unit_price: 1 }] }), 'order_import_item_untitled'],
      [anOrder({ status: 'canceled', fulfillment_status: 'shipped' }), 'order_import_canceled_fulfilled'],
      [anOrder({ status: 'canceled' }), 'order_import_canceled_captured'],
      [anOrder({ status: 'canceled', payment_status: 'authorized' }), 'order_import_canceled_captured'],
      [{ ...good, email: `twin-${tag}@example.com` }, 'order_import_external_id_repeated'],
    ];
    for (const [bad, code] of cases) {
      const res = await importing([good, bad]);
      expect(errorOf(res), code).toMatchObject({ status: 400, type: 'invalid_data', code });
      if (code !== 'order_import_external_id_repeated') expect(res.json().message).toMatch(/^orders\[1\]/);
    }
    const found = await t.admin('GET', `/admin/orders?q=good-${tag}`);
    expect(found.json().count).toBe(0);
  });

  it('validates the body: 400 for a missing field, an empty list, a negative price, too many orders', async () => {
    const { email: _email, ...noEmail } = anOrder();
    for (const orders of [[noEmail], [], [anOrder({ items: [{ title: 'x', quantity: 1, unit_price: -1 }] })]])
      expect((await importing(orders)).statusCode).toBe(400);
    expect((await importing(Array.from({ length: 1001 }, () => anOrder()))).statusCode).toBe(400);
  });

  it('is a write: a viewer is refused', async () => {
    const res = await t.admin('POST', '/admin/orders/import', { orders: [anOrder()] }, { token: t.viewerToken });
    expect(res.statusCode).toBe(403);
  });
});
