import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { makeRegion } from '../checkout/checkout.testing.ts';
import { placeOrder } from '../orders/orders.testing.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  await makeRegion(t);
});
afterAll(() => t.close());

describe('GET /admin/dashboard', () => {
  it('sums orders and revenue per day (canceled left out), lists low stock and counts unread notifications', async () => {
    const a = await placeOrder(t, { lines: [2], product: { stock: 3 } });
    const b = await placeOrder(t, { lines: [1] });
    const canceled = await placeOrder(t, { lines: [1] });
    expect((await t.admin('POST', `/admin/orders/${canceled.order.id}/cancel`)).statusCode).toBe(200);
    const res = await t.admin('GET', '/admin/dashboard');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    const today = t.clock.now().toISOString().slice(0, 10);
    expect(body.days).toBe(30);
    const currency = (a.order as unknown as { currency_code: string }).currency_code;
    expect(body.sales).toEqual([
      { day: today, currency_code: currency, orders: 2, revenue: a.order.total + b.order.total },
    ]);
    expect(body.low_stock).toEqual([expect.objectContaining({ variant_id: a.variants[0].id, inventory_quantity: 1 })]);
    expect(body.unread_notifications).toBe(0);
  });

  it('cuts days at the operator offset, refuses a bad one, and is open to viewers', async () => {
    expect((await t.admin('GET', '/admin/dashboard?utc_offset_minutes=900')).statusCode).toBe(400);
    const res = await t.admin('GET', '/admin/dashboard?utc_offset_minutes=-600', undefined, { token: t.viewerToken });
    expect(res.statusCode).toBe(200);
    const shifted = new Date(t.clock.now().getTime() - 600 * 60_000).toISOString().slice(0, 10);
    expect(res.json().sales.map((s: { day: string }) => s.day)).toEqual([shifted]);
  });
});
