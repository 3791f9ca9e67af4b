import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { makeRegion } from '../checkout/checkout.testing.ts';
import { adminOk, placeOrder } from './orders.testing.ts';

let t: TestApp;
let region: { id: string };

beforeAll(async () => {
  t = await startTestApp();
  region = await makeRegion(t);
});
afterAll(() => t.close());

const listed = async (query: string) => {
  const res = await t.admin('GET', `/admin/orders?limit=100&${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().orders as { id: string }[]).map((o) => o.id).sort();
};

describe('order list filters on the lifecycle statuses', () => {
  it('pending, completed, canceled, archived and draft, one or many; drafts only when asked for', async () => {
    const pending = (await placeOrder(t)).order;
    const done = (await placeOrder(t)).order;
    await adminOk(t, `/admin/orders/${done.id}/capture`);
    await adminOk(t, `/admin/orders/${done.id}/fulfillments`, { items: [{ item_id: done.items[0].id, quantity: 3 }] });
    await adminOk(t, `/admin/orders/${done.id}/complete`);
    const canceled = (await placeOrder(t)).order;
    await adminOk(t, `/admin/orders/${canceled.id}/cancel`);
    const archived = (await placeOrder(t)).order;
    await adminOk(t, `/admin/orders/${archived.id}/cancel`);
    await adminOk(t, `/admin/orders/${archived.id}/archive`);
    const draft = (await adminOk(t, '/admin/draft-orders', { region_id: region.id, email: 'draft@example.com' }))
      .draft_order;

    expect(await listed('status=pending')).toEqual([pending.id]);
    expect(await listed('status=completed')).toEqual([done.id]);
    expect(await listed('status=canceled')).toEqual([canceled.id]);
    expect(await listed('status=archived')).toEqual([archived.id]);
    expect(await listed('status=draft')).toEqual([draft.id]);
    expect(await listed('status[]=completed&status[]=archived')).toEqual([done.id, archived.id].sort());
    expect(await listed('status=requires_action')).toEqual([]);
    expect(await listed('is_draft_order=true')).toEqual([draft.id]);
    const all = await listed('');
    expect(all).toEqual([pending.id, done.id, canceled.id, archived.id].sort());
    const bad = await t.admin('GET', '/admin/orders?status=shipped');
    expect(bad.statusCode).toBe(400);
  }, 120_000);
});
