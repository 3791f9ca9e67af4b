import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { medusaSdks, sdkRefusal } from '../../../test/medusa-sdk.ts';
import { makeRegion, uniq } from '../checkout/checkout.testing.ts';

// biome-ignore lint/suspicious/noExplicitAny: SDK answers read as JSON
type Json = any;

let t: TestApp;
let admin: Json;
beforeAll(async () => {
  t = await startTestApp();
  admin = (await medusaSdks(t)).dashboard;
});
afterAll(() => t.close());

async function rowCount(table: string): Promise<number> {
  const res = await t.database.db.execute(`select count(*)::int as n from ${table}` as never);
  return Number((res as unknown as { rows: { n: number }[] }).rows[0].n);
}

describe('shipping profiles (sdk.admin.shippingProfile)', () => {
  it('has the default profile; creates, lists, updates and deletes one; refuses deleting one in use or the default', async () => {
    const { shipping_profiles: all } = await admin.admin.shippingProfile.list({ type: 'default' } as never);
    expect(all.map((p: Json) => p.id)).toContain('sp_default');

    const { shipping_profile: heavy } = await admin.admin.shippingProfile.create({ name: 'Heavy', type: 'heavy' });
    expect(heavy).toMatchObject({ name: 'Heavy', type: 'heavy', metadata: null, deleted_at: null });
    expect(heavy.id).toMatch(/^sp_/);
    expect((await admin.admin.shippingProfile.retrieve(heavy.id)).shipping_profile).toEqual(heavy);
    const renamed = await admin.admin.shippingProfile.update(heavy.id, { name: 'Freight' });
    expect(renamed.shipping_profile.name).toBe('Freight');
    const listed = await admin.admin.shippingProfile.list({ q: 'freig' } as never);
    expect(listed.shipping_profiles.map((p: Json) => p.id)).toEqual([heavy.id]);

    // A product carries it: the profile cannot go.
    const product = await t.admin('POST', '/admin/products', {
      title: `Sofa ${uniq()}`,
      shipping_profile_id: heavy.id,
    });
    expect(product.json().product.shipping_profile_id).toBe(heavy.id);
    const inUse = await sdkRefusal(admin.admin.shippingProfile.delete(heavy.id));
    expect(inUse).toMatchObject({ status: 400 });
    expect((await t.admin('DELETE', `/admin/shipping-profiles/${heavy.id}`)).json().code).toBe(
      'shipping_profile_in_use',
    );
    const moved = await t.admin('POST', `/admin/products/${product.json().product.id}`, { shipping_profile_id: null });
    expect(moved.json().product.shipping_profile_id).toBeNull();
    expect(await admin.admin.shippingProfile.delete(heavy.id)).toEqual({
      id: heavy.id,
      object: 'shipping_profile',
      deleted: true,
    });
    expect((await sdkRefusal(admin.admin.shippingProfile.retrieve(heavy.id))).status).toBe(404);
    expect((await t.admin('DELETE', '/admin/shipping-profiles/sp_default')).json().code).toBe(
      'shipping_profile_default',
    );
    const unknown = await t.admin('POST', '/admin/products', { title: 'x', shipping_profile_id: 'sp_nope' });
    expect(unknown.statusCode).toBe(400);
  });
});

describe('fulfilment sets and service zones (sdk.admin.stockLocation, sdk.admin.fulfillmentSet)', () => {
  it('adds shipping and pickup sets to a location, zones with geo zones, updates and deletes them', async () => {
    const { stock_location: loc } = await admin.admin.stockLocation.create({ name: `Warehouse ${uniq()}` });
    const withSet = await admin.admin.stockLocation.createFulfillmentSet(loc.id, {
      name: 'Warehouse shipping',
      type: 'shipping',
    });
    expect(withSet.stock_location.fulfillment_sets).toEqual([
      expect.objectContaining({ name: 'Warehouse shipping', type: 'shipping', location_id: loc.id, service_zones: [] }),
    ]);
    const set = withSet.stock_location.fulfillment_sets[0];
    expect(set.id).toMatch(/^fuset_/);

    const { fulfillment_set: zoned } = await admin.admin.fulfillmentSet.createServiceZone(set.id, {
      name: 'Germany and Hamburg',
      geo_zones: [
        { type: 'country', country_code: 'DE' },
        { type: 'city', country_code: 'de', province_code: 'de-hh', city: 'Hamburg' },
        { type: 'zip', country_code: 'de', province_code: 'de-hh', city: 'Hamburg', postal_expression: '20095' },
      ],
    } as never);
    const zone = zoned.service_zones[0];
    expect(zone).toMatchObject({ name: 'Germany and Hamburg', fulfillment_set_id: set.id });
    expect(zone.geo_zones.map((g: Json) => [g.type, g.country_code, g.province_code, g.city])).toEqual([
      ['country', 'de', null, null],
      ['city', 'de', 'de-hh', 'Hamburg'],
      ['zip', 'de', 'de-hh', 'Hamburg'],
    ]);
    expect((await admin.admin.fulfillmentSet.retrieveServiceZone(set.id, zone.id)).service_zone).toEqual(zone);

    // geo_zones replaces the list: the country kept by id, the rest dropped, France added.
    const country = zone.geo_zones[0];
    const { fulfillment_set: updated } = await admin.admin.fulfillmentSet.updateServiceZone(set.id, zone.id, {
      name: 'DE + FR',
      geo_zones: [
        { id: country.id, type: 'country', country_code: 'de' },
        { type: 'country', country_code: 'fr' },
      ],
    } as never);
    expect(updated.service_zones[0].name).toBe('DE + FR');
    expect(updated.service_zones[0].geo_zones.map((g: Json) => g.country_code).sort()).toEqual(['de', 'fr']);
    expect(updated.service_zones[0].geo_zones.find((g: Json) => g.country_code === 'de').id).toBe(country.id);

    // The location shows its sets with fields=*fulfillment_sets.
    const read = await admin.admin.stockLocation.retrieve(loc.id, { fields: '*fulfillment_sets' });
    expect(read.stock_location.fulfillment_sets[0].service_zones[0].id).toBe(zone.id);
    expect((await admin.admin.stockLocation.retrieve(loc.id)).stock_location.fulfillment_sets).toBeUndefined();

    const pickup = await admin.admin.stockLocation.createFulfillmentSet(loc.id, { name: 'Pickup', type: 'pickup' });
    expect(pickup.stock_location.fulfillment_sets.map((s: Json) => s.type)).toEqual(['shipping', 'pickup']);

    const removed = await admin.admin.fulfillmentSet.deleteServiceZone(set.id, zone.id);
    expect(removed).toMatchObject({ id: zone.id, object: 'service_zone', deleted: true });
    expect((await sdkRefusal(admin.admin.fulfillmentSet.retrieveServiceZone(set.id, zone.id))).status).toBe(404);
    expect(await admin.admin.fulfillmentSet.delete(set.id)).toEqual({
      id: set.id,
      object: 'fulfillment_set',
      deleted: true,
    });
    expect((await t.admin('GET', `/admin/fulfillment-sets/${set.id}`)).statusCode).toBe(404);
  });

  it('refuses bad input with 4xx and writes nothing', async () => {
    const { stock_location: loc } = await admin.admin.stockLocation.create({ name: `Shop ${uniq()}` });
    const set = (await admin.admin.stockLocation.createFulfillmentSet(loc.id, { name: 'S', type: 'shipping' }))
      .stock_location.fulfillment_sets[0];
    const before = [await rowCount('fulfillment_sets'), await rowCount('service_zones'), await rowCount('geo_zones')];
    const cases: [string, string, unknown, number][] = [
      ['POST', `/admin/stock-locations/${loc.id}/fulfillment-sets`, { name: 'x', type: 'drone' }, 400],
      ['POST', '/admin/stock-locations/sloc_nope/fulfillment-sets', { name: 'x', type: 'pickup' }, 404],
      [
        'POST',
        `/admin/fulfillment-sets/${set.id}/service-zones`,
        { name: 'x', geo_zones: [{ type: 'province', country_code: 'de' }] },
        400,
      ],
      [
        'POST',
        `/admin/fulfillment-sets/${set.id}/service-zones`,
        { name: 'x', geo_zones: [{ type: 'country', country_code: 'deu' }] },
        400,
      ],
      ['POST', '/admin/fulfillment-sets/fuset_nope/service-zones', { name: 'x' }, 404],
      ['POST', `/admin/fulfillment-sets/${set.id}/service-zones/serzo_nope`, { name: 'x' }, 404],
      ['DELETE', '/admin/fulfillment-sets/fuset_nope', undefined, 404],
    ];
    for (const [method, url, body, status] of cases) {
      const res = await t.admin(method as 'POST', url, body as Record<string, unknown> | undefined);
      expect(res.statusCode, `${method} ${url} ${res.body}`).toBe(status);
      expect(res.json()).toHaveProperty('type');
    }
    // A geo zone id of another zone is refused inside the transaction.
    const a = (
      await admin.admin.fulfillmentSet.createServiceZone(set.id, {
        name: 'A',
        geo_zones: [{ type: 'country', country_code: 'at' }],
      } as never)
    ).fulfillment_set.service_zones[0];
    const b = (await admin.admin.fulfillmentSet.createServiceZone(set.id, { name: 'B', geo_zones: [] } as never))
      .fulfillment_set.service_zones[1];
    const stolen = await t.admin('POST', `/admin/fulfillment-sets/${set.id}/service-zones/${b.id}`, {
      name: 'B2',
      geo_zones: [{ id: a.geo_zones[0].id, type: 'country', country_code: 'at' }],
    });
    expect(stolen.json()).toMatchObject({ code: 'geo_zone_not_in_zone' });
    expect((await admin.admin.fulfillmentSet.retrieveServiceZone(set.id, b.id)).service_zone.name).toBe('B');
    expect([await rowCount('fulfillment_sets'), await rowCount('service_zones'), await rowCount('geo_zones')]).toEqual([
      before[0],
      before[1] + 2,
      before[2] + 1,
    ]);
  });
});

describe('fulfilment providers (sdk.admin.fulfillmentProvider)', () => {
  it('lists the manual provider and its options', async () => {
    const { fulfillment_providers } = await admin.admin.fulfillmentProvider.list();
    expect(fulfillment_providers).toEqual([
      { id: 'manual_manual', is_enabled: true, name: 'Manual fulfilment', plugin: null },
    ]);
    const { fulfillment_options } = await admin.admin.fulfillmentProvider.listFulfillmentOptions('manual_manual');
    expect(fulfillment_options.map((o: Json) => o.id)).toEqual(['manual-fulfillment', 'manual-fulfillment-return']);
    expect((await sdkRefusal(admin.admin.fulfillmentProvider.listFulfillmentOptions('fp_nope'))).status).toBe(404);
  });
});

describe('shipping options in a zone (sdk.admin.shippingOption)', () => {
  it('creates one with prices per currency and region and a conditional price, lists, updates, deletes', async () => {
    const region = await makeRegion(t);
    const { stock_location: loc } = await admin.admin.stockLocation.create({ name: `Hub ${uniq()}` });
    const set = (await admin.admin.stockLocation.createFulfillmentSet(loc.id, { name: 'Hub', type: 'shipping' }))
      .stock_location.fulfillment_sets[0];
    const zone = (
      await admin.admin.fulfillmentSet.createServiceZone(set.id, {
        name: 'Region',
        geo_zones: [{ type: 'country', country_code: region.countries[0].iso_2 }],
      } as never)
    ).fulfillment_set.service_zones[0];
    const { shipping_option: so } = await admin.admin.shippingOption.create({
      name: 'Standard',
      service_zone_id: zone.id,
      shipping_profile_id: 'sp_default',
      provider_id: 'manual_manual',
      price_type: 'flat',
      type: { label: 'Standard', description: '2-3 days', code: 'standard' },
      prices: [
        { currency_code: 'eur', amount: 495 },
        { currency_code: 'eur', amount: 0, rules: [{ attribute: 'item_total', operator: 'gte', value: 5000 }] },
        { region_id: region.id, amount: 450 },
        { currency_code: 'usd', amount: 600 },
      ],
      rules: [
        { attribute: 'enabled_in_store', operator: 'eq', value: 'true' },
        { attribute: 'is_return', operator: 'eq', value: 'false' },
      ],
    } as never);
    expect(so).toMatchObject({
      name: 'Standard',
      service_zone_id: zone.id,
      shipping_profile_id: 'sp_default',
      provider_id: 'manual_manual',
      price_type: 'flat',
      region_id: null,
      amount: null,
      type: { label: 'Standard', description: '2-3 days', code: 'standard' },
    });
    expect(so.prices.map((p: Json) => [p.currency_code, p.region_id, p.amount, p.price_rules.length])).toEqual([
      ['eur', null, 495, 0],
      ['eur', null, 0, 1],
      ['eur', region.id, 450, 0],
      ['usd', null, 600, 0],
    ]);
    expect(so.rules.map((r: Json) => [r.attribute, r.value])).toEqual([
      ['enabled_in_store', 'true'],
      ['is_return', 'false'],
    ]);
    const listed = await admin.admin.shippingOption.list({ service_zone_id: zone.id } as never);
    expect(listed.shipping_options.map((o: Json) => o.id)).toEqual([so.id]);
    expect((await t.admin('GET', `/admin/shipping-options?stock_location_id=${loc.id}`)).json().count).toBe(1);

    const { shipping_option: cheaper } = await admin.admin.shippingOption.update(so.id, {
      prices: [{ currency_code: 'eur', amount: 395 }],
    } as never);
    expect(cheaper.prices.map((p: Json) => p.amount)).toEqual([395]);
    expect(cheaper.rules).toHaveLength(2);

    // Bad references and shapes: 4xx, nothing written.
    const bad = [
      { name: 'x', service_zone_id: 'serzo_nope', prices: [{ currency_code: 'eur', amount: 1 }] },
      {
        name: 'x',
        service_zone_id: zone.id,
        shipping_profile_id: 'sp_nope',
        prices: [{ currency_code: 'eur', amount: 1 }],
      },
      { name: 'x', service_zone_id: zone.id, provider_id: 'fp_nope', prices: [{ currency_code: 'eur', amount: 1 }] },
      { name: 'x', service_zone_id: zone.id, prices: [] },
      { name: 'x', service_zone_id: zone.id, price_type: 'calculated' },
      { name: 'x', service_zone_id: zone.id, prices: [{ region_id: 'reg_nope', amount: 1 }] },
      { name: 'x', service_zone_id: zone.id, prices: [{ amount: 1 }] },
      {
        name: 'x',
        service_zone_id: zone.id,
        prices: [{ currency_code: 'eur', amount: 1, rules: [{ attribute: 'weight', operator: 'gt', value: 1 }] }],
      },
    ];
    const before = await rowCount('shipping_options');
    for (const body of bad) {
      const res = await t.admin('POST', '/admin/shipping-options', body);
      expect(res.statusCode, `${JSON.stringify(body)} ${res.body}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
    }
    expect(await rowCount('shipping_options')).toBe(before);

    expect(await admin.admin.shippingOption.delete(so.id)).toEqual({
      id: so.id,
      object: 'shipping_option',
      deleted: true,
    });
  });

  it("keeps the spec's region option: it lives in the region's zone of the default location", async () => {
    const region = await makeRegion(t);
    const res = await t.admin('POST', '/admin/shipping-options', { name: 'Flat', region_id: region.id, amount: 700 });
    const so = res.json().shipping_option;
    expect(so).toMatchObject({
      region_id: region.id,
      amount: 700,
      currency_code: 'eur',
      shipping_profile_id: 'sp_default',
    });
    expect(so.prices).toEqual([expect.objectContaining({ region_id: region.id, amount: 700, currency_code: 'eur' })]);
    const zone = (await t.admin('GET', `/admin/shipping-options/${so.id}`)).json().shipping_option.service_zone_id;
    const locations = (await admin.admin.stockLocation.list({ fields: '*fulfillment_sets' } as never)).stock_locations;
    const home = locations.find((l: Json) =>
      l.fulfillment_sets.some((s: Json) => s.service_zones.some((z: Json) => z.id === zone)),
    );
    const z = home.fulfillment_sets.flatMap((s: Json) => s.service_zones).find((x: Json) => x.id === zone);
    expect(z).toMatchObject({ region_id: region.id, name: region.name });
    expect(z.geo_zones.map((g: Json) => g.country_code)).toEqual([region.countries[0].iso_2]);
    // A second option of the region shares the zone; an amount change moves its region price.
    const second = (
      await t.admin('POST', '/admin/shipping-options', { name: 'Express', region_id: region.id, amount: 1500 })
    ).json().shipping_option;
    expect(second.service_zone_id).toBe(zone);
    const patched = (await t.admin('PATCH', `/admin/shipping-options/${second.id}`, { amount: 1600 })).json()
      .shipping_option;
    expect(patched.prices.map((p: Json) => p.amount)).toEqual([1600]);
  });
});
