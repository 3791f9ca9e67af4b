import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { dispatchAndSend, expectValidSignature, SECRET, webhookFixtures } from '../webhooks/webhooks.testing.ts';

/**
 * The pricing area's events (`promotion.*`, `price_list.*`, `customer_group.*`) reach a real
 * listening webhook receiver: signed, one delivery per event, in the order of the admin's writes,
 * each carrying the resource it names.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const fx = webhookFixtures(() => t);
afterEach(() => fx.cleanup());

// biome-ignore lint/suspicious/noExplicitAny: admin answers read field by field
const ok = async (res: Promise<{ statusCode: number; body: string; json(): any }>) => {
  const r = await res;
  expect(r.statusCode, r.body).toBe(200);
  return r.json();
};

describe('pricing events through webhooks', () => {
  it('delivers created, updated and deleted of promotions, price lists and customer groups', async () => {
    const receiver = await fx.receiver();
    await fx.subscribe(`${receiver.url}/pricing`, ['promotion.*', 'price_list.*', 'customer_group.*']);

    const { customer_group: group } = await ok(fx.admin('POST', '/admin/customer-groups', { name: 'Events VIP' }));
    await ok(fx.admin('POST', `/admin/customer-groups/${group.id}`, { name: 'Events VIPs' }));
    const { promotion } = await ok(
      fx.admin('POST', '/admin/promotions', {
        code: 'EVENTS10',
        type: 'standard',
        status: 'active',
        rules: [{ attribute: 'customer.groups.id', operator: 'in', values: [group.id] }],
        application_method: { type: 'percentage', value: 10, target_type: 'order', allocation: 'across' },
      }),
    );
    await ok(fx.admin('POST', `/admin/promotions/${promotion.id}`, { status: 'inactive' }));
    const { price_list: list } = await ok(
      fx.admin('POST', '/admin/price-lists', {
        title: 'Events sale',
        description: 'for events',
        type: 'sale',
        status: 'draft',
        rules: { 'customer.groups.id': [group.id] },
      }),
    );
    await ok(fx.admin('POST', `/admin/price-lists/${list.id}`, { status: 'active' }));
    await ok(fx.admin('DELETE', `/admin/price-lists/${list.id}`));
    await ok(fx.admin('DELETE', `/admin/promotions/${promotion.id}`));
    await ok(fx.admin('DELETE', `/admin/customer-groups/${group.id}`));

    await dispatchAndSend(t);
    const got = receiver.requests.map((r) => {
      expectValidSignature(r.headers['x-service-signature'], r.body, SECRET, t.clock.now());
      return { event: r.headers['x-service-event'], id: JSON.parse(r.body.toString('utf8')).id };
    });
    expect(got).toEqual([
      { event: 'customer_group.created', id: group.id },
      { event: 'customer_group.updated', id: group.id },
      { event: 'promotion.created', id: promotion.id },
      { event: 'promotion.updated', id: promotion.id },
      { event: 'price_list.created', id: list.id },
      { event: 'price_list.updated', id: list.id },
      { event: 'price_list.deleted', id: list.id },
      { event: 'promotion.deleted', id: promotion.id },
      { event: 'customer_group.deleted', id: group.id },
    ]);
  });
});
