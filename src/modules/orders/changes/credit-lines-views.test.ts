import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.ts';
import { statementsOf } from '../../../../test/statements.ts';
import { makeRegion } from '../../checkout/checkout.testing.ts';
import { bearer, signUpCustomer } from '../../customers/customers.testing.ts';
import { adminOk, adminOrder, placeOrder } from '../orders.testing.ts';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
  await makeRegion(t);
});
afterAll(() => t.close());

type Listed = { id: string; total: number; credit_line_total: number; credit_lines?: unknown[] };
const byId = (orders: Listed[], id: string) => orders.find((o) => o.id === id)!;

describe('every view of an order counts its credit lines as the order desk does', () => {
  it('store page, store list, account, admin list and admin detail agree, at no statement more', async () => {
    const shopper = await signUpCustomer(t);
    const headers = bearer(shopper.token);
    const credited = (await placeOrder(t, { headers, lines: [2] })).order;
    const plain = (await placeOrder(t, { headers, lines: [1] })).order;

    const views = {
      storePage: () => t.store('GET', `/store/orders/${credited.id}`, undefined, { headers }),
      storeList: () => t.store('GET', '/store/orders', undefined, { headers }),
      account: () =>
        t.store('GET', `/store/customers/me?fields=${encodeURIComponent('*orders')}`, undefined, { headers }),
      adminList: () => t.admin('GET', `/admin/orders?customer_id=${shopper.customer.id}`),
    };
    const statements = async () => {
      const counted: Record<string, number> = {};
      for (const [name, view] of Object.entries(views)) {
        const { result, statements } = await statementsOf(t.database, view);
        expect(result.statusCode, result.body).toBe(200);
        counted[name] = statements;
      }
      return counted;
    };
    const before = await statements();
    // Page: the customer, the order, its lines, methods, fulfillments, payments (4). Store list: the
    // same for the page's orders, and the count. Account: as store-orders.test.ts. Admin list: the
    // page, the count, the page's lines and methods, and the request's own one. None per order.
    expect(before).toEqual({ storePage: 9, storeList: 10, account: 6, adminList: 5 });

    // Uncaptured, the whole total is pending: two goodwill lines settle part of it.
    await adminOk(t, `/admin/orders/${credited.id}/credit-lines`, {
      amount: 300,
      reference: 'goodwill',
      reference_id: 'a',
    });
    await adminOk(t, `/admin/orders/${credited.id}/credit-lines`, {
      amount: 200,
      reference: 'goodwill',
      reference_id: 'b',
    });

    const desk = await adminOrder(t, credited.id);
    expect(desk).toMatchObject({ total: credited.total - 500, credit_line_total: 500 });
    expect(desk.credit_lines.map((l: { amount: number }) => l.amount)).toEqual([300, 200]);
    // Medusa's parts of it beside: no tax on a credit line, so the subtotal is the total.
    const money = { total: desk.total, credit_line_total: 500, credit_line_subtotal: 500, credit_line_tax_total: 0 };

    // The store's page and list carry the lines too (Medusa's default store order fields name them).
    const page = (await views.storePage()).json().order;
    expect(page).toMatchObject(money);
    expect(page.credit_lines).toEqual(desk.credit_lines);
    const storeList = (await views.storeList()).json().orders as Listed[];
    expect(byId(storeList, credited.id)).toMatchObject(money);
    expect(byId(storeList, credited.id).credit_lines).toEqual(desk.credit_lines);
    const account = (await views.account()).json().customer.orders as Listed[];
    expect(byId(account, credited.id)).toMatchObject(money);
    const adminList = (await views.adminList()).json().orders as Listed[];
    expect(byId(adminList, credited.id)).toMatchObject(money);
    // Medusa's admin list names no credit lines, only totals.
    expect(byId(adminList, credited.id).credit_lines).toBeUndefined();

    // An order without lines is as placed, everywhere.
    const untouched = { total: plain.total, credit_line_total: 0, credit_line_subtotal: 0, credit_line_tax_total: 0 };
    expect(await adminOrder(t, plain.id)).toMatchObject({ ...untouched, credit_lines: [] });
    expect(byId(storeList, plain.id)).toMatchObject({ ...untouched, credit_lines: [] });
    expect(byId(account, plain.id)).toMatchObject(untouched);
    expect(byId(adminList, plain.id)).toMatchObject(untouched);

    // The lines come with the order rows each view reads anyway: no view reads more for them.
    expect(await statements()).toEqual(before);
  }, 120_000);

  it('checkout answering a completed cart again and the shipping notice count them too', async () => {
    const { order } = await placeOrder(t, { lines: [2] });
    const { cart_id } = order as typeof order & { cart_id: string };
    await adminOk(t, `/admin/orders/${order.id}/credit-lines`, {
      amount: 400,
      reference: 'goodwill',
      reference_id: 'c',
    });
    const desk = await adminOrder(t, order.id);
    const money = {
      total: order.total - 400,
      credit_line_total: 400,
      credit_line_subtotal: 400,
      credit_line_tax_total: 0,
    };
    expect(desk).toMatchObject(money);

    // The cart is completed already: checkout answers its order (loadOrderView), credited.
    const again = await t.store('POST', `/store/carts/${cart_id}/complete`);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().order).toMatchObject({ id: order.id, ...money });
    expect(again.json().order.credit_lines).toEqual(desk.credit_lines);

    const item = order.items[0];
    const f = (
      await adminOk(t, `/admin/orders/${order.id}/fulfillments`, { items: [{ item_id: item.id, quantity: 2 }] })
    ).order.fulfillments[0];
    await adminOk(t, `/admin/orders/${order.id}/fulfillments/${f.id}/shipments`);
    await t.workers.dispatcher.drain();
    await t.workers.notifications.drain();
    const sent = await t.admin('GET', `/admin/notification-deliveries?resource_id=${order.id}&template=order.shipped`);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().notification_deliveries[0].data).toMatchObject({ total_amount: money.total });
  }, 120_000);

  it('GET /admin/orders?order=total sorts on the credited total, both ways, filtered or not', async () => {
    const shopper = await signUpCustomer(t);
    const headers = bearer(shopper.token);
    const big = (await placeOrder(t, { headers, lines: [3] })).order;
    const mid = (await placeOrder(t, { headers, lines: [2] })).order;
    const small = (await placeOrder(t, { headers, lines: [1] })).order;
    expect(small.total < mid.total && mid.total < big.total).toBe(true);
    // Credited below `mid` and above `small`: the stored totals would sort it last.
    const credit = big.total - (mid.total + small.total) / 2;
    await adminOk(t, `/admin/orders/${big.id}/credit-lines`, {
      amount: credit,
      reference: 'goodwill',
      reference_id: 's',
    });

    const ids = async (query: string) => {
      const res = await t.admin('GET', `/admin/orders?${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().orders as Listed[];
    };
    const mine = `customer_id=${shopper.customer.id}`;
    expect((await ids(`${mine}&order=total`)).map((o) => o.id)).toEqual([small.id, big.id, mid.id]);
    expect((await ids(`${mine}&order=-total`)).map((o) => o.id)).toEqual([mid.id, big.id, small.id]);

    // Unfiltered (every order of this file, some credited): the page is in the order of the totals it shows.
    for (const order of ['total', '-total']) {
      const totals = (await ids(`order=${order}&limit=100`)).map((o) => o.total);
      const sorted = [...totals].sort((a, b) => (order === 'total' ? a - b : b - a));
      expect(totals).toEqual(sorted);
    }
  }, 120_000);
});
