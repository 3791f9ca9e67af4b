import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.ts';
import { MARKETPLACE_ENV } from '../marketplace.testing.ts';
import { admin, buyLicense, json, publishPaid } from './checkout.testing.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: MARKETPLACE_ENV });
});
afterAll(() => t.close());

describe('marketplace admin: checkout sessions', () => {
  it('lists checkout sessions for the vendor, newest first, paid or open, without license keys', async () => {
    const item = await publishPaid(t);
    const paid = await buyLicense(t, item.marketplace_id, 'inst_sessions');
    const open = (
      await json(t, 'POST', '/store/marketplace/checkout/session', {
        marketplace_id: item.marketplace_id,
        version: '1.0.0',
        customer_email: 'later@shop.example',
        instance_id: 'inst_sessions',
      })
    ).json();
    const res = await admin(t, 'GET', '/admin/marketplace/checkout-sessions?limit=2');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ limit: 2, offset: 0 });
    expect(body.count).toBeGreaterThanOrEqual(2);
    expect(body.checkout_sessions.map((s: { id: string; status: string }) => [s.id, s.status])).toEqual([
      [open.id, 'open'],
      [paid.checkoutId, 'paid'],
    ]);
    expect(body.checkout_sessions[1]).toMatchObject({
      marketplace_id: item.marketplace_id,
      customer_email: 'buyer@shop.example',
      provider: 'test',
      price_eur: 29.9,
    });
    expect(res.body).not.toContain(paid.key);
  });
});
