import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const fakeProvider = (id: string) => ({
  id,
  owner: 'test-payments',
  name: 'Test payments',
  methods: [],
  channels: [],
  call: async () => ({}),
});

describe('admin regions carry their payment providers', () => {
  it('answers the providers a region names, with whether each runs now, on create, update and read', async () => {
    const created = await t.admin('POST', '/admin/regions', {
      name: 'Providers',
      currency_code: 'chf',
      payment_providers: ['pp_system_default'],
    });
    expect(created.statusCode, created.body).toBe(200);
    const { region } = created.json();
    expect(region.payment_providers).toEqual([{ id: 'pp_system_default', is_enabled: true }]);

    t.app.providers.payment.add(fakeProvider('pp_test'));
    const updated = await t.admin('POST', `/admin/regions/${region.id}`, {
      payment_providers: ['pp_test', 'pp_system_default'],
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json().region.payment_providers).toEqual([
      { id: 'pp_system_default', is_enabled: true },
      { id: 'pp_test', is_enabled: true },
    ]);

    // The plugin stops: the region still names it, but it no longer runs.
    t.app.providers.payment.removeOwner('test-payments');
    const read = (await t.admin('GET', `/admin/regions/${region.id}`)).json().region;
    expect(read.payment_providers).toEqual([
      { id: 'pp_system_default', is_enabled: true },
      { id: 'pp_test', is_enabled: false },
    ]);
    expect((await t.store('GET', `/store/regions/${region.id}`)).json().region).not.toHaveProperty('payment_providers');

    const cleared = await t.admin('POST', `/admin/regions/${region.id}`, { payment_providers: [] });
    expect(cleared.json().region.payment_providers).toEqual([]);
  });
});
