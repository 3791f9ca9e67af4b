import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { medusaSdks, type Sdk } from '../../../test/medusa-sdk.ts';
import { defaultChannelId } from '../products/products.testing.ts';

let t: TestApp;
let sdk: Sdk;
let channel: string;
beforeAll(async () => {
  t = await startTestApp();
  sdk = (await medusaSdks(t)).dashboard;
  channel = await defaultChannelId(t);
});
afterAll(() => t.close());

const address = { address_1: 'Hafenstraße 1', city: 'Hamburg', country_code: 'DE', postal_code: '20457' };

describe('admin stock locations (through the Medusa SDK)', () => {
  it('creates a location with an address, reads, lists, updates and deletes it', async () => {
    const { stock_location: created } = await sdk.admin.stockLocation.create({ name: ' Warehouse ', address });
    expect(created.id).toMatch(/^sloc_[0-9A-Z]{26}$/);
    expect(created).toMatchObject({
      name: 'Warehouse',
      address_id: expect.stringMatching(/^laddr_/),
      address: { ...address, country_code: 'de', address_2: null, company: null, phone: null, province: null },
      metadata: null,
    });

    const { stock_location: got } = await sdk.admin.stockLocation.retrieve(created.id);
    expect(got).toEqual(created);

    const { stock_location: updated } = await sdk.admin.stockLocation.update(created.id, {
      name: 'Main warehouse',
      address: { ...address, address_1: 'Kai 2', country_code: 'de' },
      metadata: { dock: 3 },
    });
    expect(updated).toMatchObject({ name: 'Main warehouse', address_id: created.address_id, metadata: { dock: 3 } });
    expect(updated.address?.address_1).toBe('Kai 2');

    const list = await sdk.admin.stockLocation.list({ q: 'main ware' });
    expect(list.stock_locations.map((l) => l.id)).toEqual([created.id]);
    expect(list).toMatchObject({ count: 1, limit: 20, offset: 0 });

    expect(await sdk.admin.stockLocation.delete(created.id)).toEqual({
      id: created.id,
      object: 'stock_location',
      deleted: true,
    });
    expect((await t.admin('GET', `/admin/stock-locations/${created.id}`)).statusCode).toBe(404);
    expect((await t.admin('DELETE', `/admin/stock-locations/${created.id}`)).statusCode).toBe(404);
  });

  it('links sales channels, shows them with fields=*sales_channels and filters by channel', async () => {
    const { stock_location: shop } = await sdk.admin.stockLocation.create({ name: 'Shop' });
    expect(shop.address).toBeNull();
    await sdk.admin.stockLocation.updateSalesChannels(shop.id, { add: [channel] });
    const { stock_location: linked } = await sdk.admin.stockLocation.retrieve(shop.id, { fields: '*sales_channels' });
    expect(linked.sales_channels?.map((c) => c.id)).toEqual([channel]);

    const byChannel = await sdk.admin.stockLocation.list({ sales_channel_id: channel, fields: '*sales_channels' });
    expect(byChannel.stock_locations.map((l) => l.id)).toContain(shop.id);

    const unlinked = await t.admin('POST', `/admin/stock-locations/${shop.id}/sales-channels?fields=*sales_channels`, {
      remove: [channel],
    });
    expect(unlinked.json().stock_location.sales_channels).toEqual([]);
  });

  it('answers bad input with 4xx and writes nothing', async () => {
    const bad = [
      await t.admin('POST', '/admin/stock-locations', {}),
      await t.admin('POST', '/admin/stock-locations', { name: '   ' }),
      await t.admin('POST', '/admin/stock-locations', {
        name: 'x',
        address: { address_1: 'a', country_code: 'germany' },
      }),
      await t.admin('POST', '/admin/stock-locations', { name: 'x', address: { country_code: 'de' } }),
      await t.admin('POST', '/admin/stock-locations', { name: 'x', extra: 1 }),
      await t.admin('POST', '/admin/stock-locations', { name: 'x', address_id: 'laddr_nope' }),
      await t.admin('GET', '/admin/stock-locations?fields=bad field'),
    ];
    for (const res of bad) {
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ type: 'invalid_data' });
    }
    const { stock_location: loc } = await sdk.admin.stockLocation.create({ name: 'Links' });
    const unknown = await t.admin('POST', `/admin/stock-locations/${loc.id}/sales-channels`, {
      add: [channel, 'sc_nope'],
    });
    expect(unknown.statusCode).toBe(400);
    const after = await sdk.admin.stockLocation.retrieve(loc.id, { fields: '*sales_channels' });
    expect(after.stock_location.sales_channels).toEqual([]);
    const missing = await t.admin('POST', '/admin/stock-locations/sloc_nope/sales-channels', { add: [channel] });
    expect(missing.statusCode).toBe(404);
  });

  it('is admin-only for writes: a viewer may read but not create', async () => {
    expect((await t.admin('GET', '/admin/stock-locations', undefined, { token: t.viewerToken })).statusCode).toBe(200);
    const res = await t.admin('POST', '/admin/stock-locations', { name: 'v' }, { token: t.viewerToken });
    expect(res.statusCode).toBe(403);
  });
});
