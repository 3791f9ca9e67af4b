import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { medusaSdks, sdkRefusal } from '../../../test/medusa-sdk.ts';
import type { JsonObject } from '../../platform/providers.ts';
import { uniq } from '../checkout/checkout.testing.ts';

// biome-ignore lint/suspicious/noExplicitAny: SDK answers read as JSON
type Json = any;

let t: TestApp;
let admin: Json;
beforeAll(async () => {
  t = await startTestApp();
  admin = (await medusaSdks(t)).dashboard;
  // A carrier as a plugin would register it (the port the plugin host fills), without a plugin.
  t.app.providers.fulfillment.add({
    id: 'fp_courier',
    owner: 'test-courier',
    name: 'Courier',
    methods: ['getFulfillmentOptions', 'createFulfillment', 'cancelFulfillment'],
    channels: [],
    call: async (method): Promise<JsonObject> =>
      method === 'getFulfillmentOptions' ? { options: [{ id: 'parcel' }] } : {},
  });
});
afterAll(() => {
  t.app.providers.fulfillment.removeOwner('test-courier');
  return t.close();
});

async function zoneAt(locationId: string): Promise<string> {
  const set = (await admin.admin.stockLocation.createFulfillmentSet(locationId, { name: 'Parcels', type: 'shipping' }))
    .stock_location.fulfillment_sets[0];
  return (
    await admin.admin.fulfillmentSet.createServiceZone(set.id, {
      name: 'Germany',
      geo_zones: [{ type: 'country', country_code: 'de' }],
    })
  ).fulfillment_set.service_zones[0].id;
}

const optionIn = (zoneId: string, providerId: string) =>
  admin.admin.shippingOption.create({
    name: `Option ${uniq()}`,
    service_zone_id: zoneId,
    shipping_profile_id: 'sp_default',
    provider_id: providerId,
    price_type: 'flat',
    type: { label: 'Standard', code: 'standard' },
    prices: [{ currency_code: 'eur', amount: 495 }],
  });

describe('fulfilment providers of a stock location (sdk.admin.stockLocation.updateFulfillmentProviders)', () => {
  it('links and unlinks providers, shows them with fields=*fulfillment_providers', async () => {
    const { stock_location: loc } = await admin.admin.stockLocation.create({ name: `Warehouse ${uniq()}` });
    await admin.admin.stockLocation.updateFulfillmentProviders(loc.id, { add: ['manual_manual', 'fp_courier'] });
    // The SDK's method sends no query; the route takes `fields` as Medusa's does.
    const linked = await t.admin(
      'POST',
      `/admin/stock-locations/${loc.id}/fulfillment-providers?fields=*fulfillment_providers`,
      {
        add: ['fp_courier'],
      },
    );
    expect(linked.statusCode, linked.body).toBe(200);
    expect(linked.json().stock_location.fulfillment_providers).toEqual([
      { id: 'fp_courier', is_enabled: true },
      { id: 'manual_manual', is_enabled: true },
    ]);
    await admin.admin.stockLocation.updateFulfillmentProviders(loc.id, { remove: ['fp_courier'] });
    const read = await admin.admin.stockLocation.retrieve(loc.id, { fields: '*fulfillment_providers' });
    expect(read.stock_location.fulfillment_providers).toEqual([{ id: 'manual_manual', is_enabled: true }]);
    const listed = await admin.admin.stockLocation.list({ id: [loc.id], fields: '*fulfillment_providers' });
    expect(listed.stock_locations[0].fulfillment_providers).toEqual([{ id: 'manual_manual', is_enabled: true }]);
  });

  it("a linked location's options must use a linked provider; a location linked to none takes any", async () => {
    const { stock_location: open } = await admin.admin.stockLocation.create({ name: `Open ${uniq()}` });
    const openZone = await zoneAt(open.id);
    expect((await optionIn(openZone, 'fp_courier')).shipping_option.provider_id).toBe('fp_courier');

    const { stock_location: shop } = await admin.admin.stockLocation.create({ name: `Shop ${uniq()}` });
    const shopZone = await zoneAt(shop.id);
    await admin.admin.stockLocation.updateFulfillmentProviders(shop.id, { add: ['manual_manual'] });
    const bad = await sdkRefusal(optionIn(shopZone, 'fp_courier'));
    expect(bad.status).toBe(400);
    expect(bad.message).toContain('fp_courier');
    expect((await admin.admin.shippingOption.list({ service_zone_id: shopZone })).count).toBe(0);
    const { shipping_option: manual } = await optionIn(shopZone, 'manual_manual');
    expect((await sdkRefusal(admin.admin.shippingOption.update(manual.id, { provider_id: 'fp_courier' }))).status).toBe(
      400,
    );
    await admin.admin.stockLocation.updateFulfillmentProviders(shop.id, { add: ['fp_courier'] });
    expect(
      (await admin.admin.shippingOption.update(manual.id, { provider_id: 'fp_courier' })).shipping_option.provider_id,
    ).toBe('fp_courier');
  });

  it('refuses an unknown provider or location with 4xx and links nothing', async () => {
    const { stock_location: loc } = await admin.admin.stockLocation.create({ name: `Hub ${uniq()}` });
    const bad = await sdkRefusal(
      admin.admin.stockLocation.updateFulfillmentProviders(loc.id, { add: ['manual_manual', 'fp_nobody'] }),
    );
    expect(bad.status).toBe(400);
    const read = await admin.admin.stockLocation.retrieve(loc.id, { fields: '*fulfillment_providers' });
    expect(read.stock_location.fulfillment_providers).toEqual([]);
    expect(
      (await sdkRefusal(admin.admin.stockLocation.updateFulfillmentProviders('sloc_nope', { add: ['manual_manual'] })))
        .status,
    ).toBe(404);
    const res = await t.admin('POST', `/admin/stock-locations/${loc.id}/fulfillment-providers`, { add: 'manual' });
    expect(res.statusCode, res.body).toBe(400);
  });
});
