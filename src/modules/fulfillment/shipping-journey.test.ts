import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { medusaSdks } from '../../../test/medusa-sdk.ts';
import { defaultChannelId, freshCountry, makeRegion, uniq } from '../checkout/checkout.testing.ts';

// biome-ignore lint/suspicious/noExplicitAny: SDK answers read as JSON
type Json = any;

/**
 * A shop with a warehouse that ships (standard parcels, free from €50; freight for heavy goods)
 * and a shop in Hamburg where shoppers collect: the storefront through Medusa's JS SDK.
 */

let t: TestApp;
let admin: Json;
let store: Json;
let region: { id: string; countries: { iso_2: string }[] };
let country: string;
const opt: Record<'standard' | 'freight' | 'pickup', Json> = {} as never;
let tshirt: string;
let sofa: string;

async function variantOf(body: Record<string, unknown>): Promise<string> {
  const res = await t.admin('POST', '/admin/products', {
    title: `Product ${uniq()}`,
    status: 'published',
    sales_channels: [{ id: await defaultChannelId(t) }],
    ...body,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().product.variants[0].id;
}

const variant = (price: number) => ({
  title: 'One',
  sku: `SKU-${uniq()}`,
  manage_inventory: false,
  prices: [{ currency_code: 'eur', amount: price }],
});

beforeAll(async () => {
  t = await startTestApp();
  const sdks = await medusaSdks(t);
  admin = sdks.dashboard;
  store = sdks.storefront;
  region = await makeRegion(t);
  country = region.countries[0].iso_2;
  const channel = await defaultChannelId(t);
  const { shipping_profile: heavy } = await admin.admin.shippingProfile.create({ name: 'Heavy', type: 'heavy' });

  const { stock_location: warehouse } = await admin.admin.stockLocation.create({ name: 'Warehouse' });
  const { stock_location: shop } = await admin.admin.stockLocation.create({ name: 'Shop Hamburg' });
  for (const loc of [warehouse, shop]) await admin.admin.stockLocation.updateSalesChannels(loc.id, { add: [channel] });
  const shipping = (
    await admin.admin.stockLocation.createFulfillmentSet(warehouse.id, { name: 'Parcels', type: 'shipping' })
  ).stock_location.fulfillment_sets[0];
  const pickup = (await admin.admin.stockLocation.createFulfillmentSet(shop.id, { name: 'Collect', type: 'pickup' }))
    .stock_location.fulfillment_sets[0];
  const country_zone = (
    await admin.admin.fulfillmentSet.createServiceZone(shipping.id, {
      name: 'Whole country',
      geo_zones: [{ type: 'country', country_code: country }],
    })
  ).fulfillment_set.service_zones[0];
  const city_zone = (
    await admin.admin.fulfillmentSet.createServiceZone(pickup.id, {
      name: 'Hamburg',
      geo_zones: [{ type: 'city', country_code: country, province_code: 'hh', city: 'Hamburg' }],
    })
  ).fulfillment_set.service_zones[0];

  const base = { provider_id: 'manual_manual', price_type: 'flat' };
  opt.standard = (
    await admin.admin.shippingOption.create({
      ...base,
      name: 'Standard',
      service_zone_id: country_zone.id,
      shipping_profile_id: 'sp_default',
      type: { label: 'Standard', description: '2-3 days', code: 'standard' },
      prices: [
        { currency_code: 'eur', amount: 495 },
        { currency_code: 'eur', amount: 0, rules: [{ attribute: 'item_total', operator: 'gte', value: 5000 }] },
      ],
      rules: [
        { attribute: 'enabled_in_store', operator: 'eq', value: 'true' },
        { attribute: 'is_return', operator: 'eq', value: 'false' },
      ],
    })
  ).shipping_option;
  opt.freight = (
    await admin.admin.shippingOption.create({
      ...base,
      name: 'Freight',
      service_zone_id: country_zone.id,
      shipping_profile_id: heavy.id,
      type: { label: 'Freight', code: 'freight' },
      prices: [{ currency_code: 'eur', amount: 4900 }],
    })
  ).shipping_option;
  opt.pickup = (
    await admin.admin.shippingOption.create({
      ...base,
      name: 'Collect in the shop',
      service_zone_id: city_zone.id,
      shipping_profile_id: 'sp_default',
      type: { label: 'Pickup', code: 'pickup' },
      prices: [{ currency_code: 'eur', amount: 0 }],
    })
  ).shipping_option;
  // Switched off for the store, and a return option: never offered to a cart.
  for (const rules of [
    [{ attribute: 'enabled_in_store', operator: 'eq', value: 'false' }],
    [{ attribute: 'is_return', operator: 'eq', value: 'true' }],
  ])
    await admin.admin.shippingOption.create({
      ...base,
      name: `Hidden ${uniq()}`,
      service_zone_id: country_zone.id,
      shipping_profile_id: 'sp_default',
      prices: [{ currency_code: 'eur', amount: 1 }],
      rules,
    });

  tshirt = await variantOf({ variants: [variant(1500)] });
  sofa = await variantOf({ shipping_profile_id: heavy.id, variants: [variant(30000)] });
});
afterAll(() => t.close());

const address = (city: string, province: string) => ({
  first_name: 'Grace',
  last_name: 'Hopper',
  address_1: 'Jungfernstieg 1',
  postal_code: '20095',
  city,
  province,
  country_code: country,
});

async function newCart(items: { variant_id: string; quantity: number }[], city = 'Berlin', province = 'be') {
  const { cart } = await store.store.cart.create({
    region_id: region.id,
    email: `shopper-${uniq()}@example.com`,
    items,
    shipping_address: address(city, province),
  });
  return cart;
}

const offered = async (cartId: string) =>
  Object.fromEntries(
    (await store.store.fulfillment.listCartOptions({ cart_id: cartId })).shipping_options.map((o: Json) => [o.name, o]),
  );

describe('storefront shipping: profiles, zones, conditional prices, pickup', () => {
  it('a cart with a default and a heavy item needs a method for each profile before it completes', async () => {
    const cart = await newCart([
      { variant_id: tshirt, quantity: 1 },
      { variant_id: sofa, quantity: 1 },
    ]);
    const options = await offered(cart.id);
    // Berlin: no pickup (the shop serves Hamburg); the item total is over €50, so Standard is free.
    expect(Object.keys(options).sort()).toEqual(['Freight', 'Standard']);
    expect(options.Standard).toMatchObject({
      amount: 0,
      shipping_profile_id: 'sp_default',
      calculated_price: { calculated_amount: 0, currency_code: 'eur' },
      service_zone: { fulfillment_set: { type: 'shipping', location: { name: 'Warehouse' } } },
    });
    expect(options.Freight).toMatchObject({ amount: 4900, shipping_profile_id: opt.freight.shipping_profile_id });

    await store.store.cart.addShippingMethod(cart.id, { option_id: opt.standard.id });
    const short = await t.store('POST', `/store/carts/${cart.id}/complete`);
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({ type: 'invalid_data', code: 'shipping_profiles_unserved' });
    expect(short.json().message).toContain(opt.freight.shipping_profile_id);

    const { cart: both } = await store.store.cart.addShippingMethod(cart.id, { option_id: opt.freight.id });
    expect(both.shipping_methods.map((m: Json) => [m.shipping_option_id, m.amount]).sort()).toEqual(
      [
        [opt.standard.id, 0],
        [opt.freight.id, 4900],
      ].sort(),
    );
    expect(both).toMatchObject({ item_total: 31500, shipping_total: 4900, total: 36400 });
    const done = await store.store.cart.complete(cart.id);
    expect(done.type).toBe('order');
    expect(done.order.shipping_methods).toHaveLength(2);
    expect(done.order.total).toBe(36400);
  });

  it('free shipping over €50 follows the cart; pickup in the shop replaces the parcel of the same profile', async () => {
    const cart = await newCart([{ variant_id: tshirt, quantity: 1 }], 'Hamburg', 'HH');
    const options = await offered(cart.id);
    expect(Object.keys(options).sort()).toEqual(['Collect in the shop', 'Standard']);
    expect(options.Standard.amount).toBe(495);
    expect(options['Collect in the shop']).toMatchObject({
      amount: 0,
      service_zone: { fulfillment_set: { type: 'pickup', location: { name: 'Shop Hamburg' } } },
    });
    const quote = await store.store.fulfillment.calculate(opt.standard.id, { cart_id: cart.id });
    expect(quote.shipping_option.calculated_price.calculated_amount).toBe(495);

    const { cart: parcel } = await store.store.cart.addShippingMethod(cart.id, { option_id: opt.standard.id });
    expect(parcel).toMatchObject({ shipping_total: 495, total: 1995 });
    // Four T-shirts: €60, over the threshold: the chosen method becomes free at once.
    const { cart: more } = await store.store.cart.updateLineItem(cart.id, parcel.items[0].id, { quantity: 4 });
    expect(more).toMatchObject({ item_total: 6000, shipping_total: 0, total: 6000 });
    expect((await offered(cart.id)).Standard.amount).toBe(0);
    // Back under it: the price comes back.
    const { cart: fewer } = await store.store.cart.updateLineItem(cart.id, parcel.items[0].id, { quantity: 2 });
    expect(fewer).toMatchObject({ shipping_total: 495, total: 3495 });

    const { cart: collect } = await store.store.cart.addShippingMethod(cart.id, { option_id: opt.pickup.id });
    expect(collect.shipping_methods.map((m: Json) => m.shipping_option_id)).toEqual([opt.pickup.id]);
    expect(collect).toMatchObject({ shipping_total: 0, total: 3000 });
    const done = await store.store.cart.complete(cart.id);
    expect(done.type).toBe('order');
    expect(done.order.shipping_methods.map((m: Json) => m.name)).toEqual(['Collect in the shop']);
  });

  it('refuses an option the cart is not offered: another zone, another profile, a hidden one', async () => {
    const cart = await newCart([{ variant_id: tshirt, quantity: 1 }]);
    for (const id of [opt.pickup.id, opt.freight.id]) {
      const res = await t.store('POST', `/store/carts/${cart.id}/shipping-methods`, { option_id: id });
      expect(res.statusCode, id).toBe(400);
    }
    const hidden = (await t.admin('GET', '/admin/shipping-options?limit=100'))
      .json()
      .shipping_options.filter((o: Json) => o.name.startsWith('Hidden'));
    expect(hidden).toHaveLength(2);
    const names = Object.keys(await offered(cart.id));
    for (const h of hidden) {
      expect(names).not.toContain(h.name);
      expect((await t.store('POST', `/store/carts/${cart.id}/shipping-methods`, { option_id: h.id })).statusCode).toBe(
        400,
      );
    }
    // An address moved out of the zone after choosing: completing refuses the method.
    await store.store.cart.addShippingMethod(cart.id, { option_id: opt.standard.id });
    // A country no region of this file holds yet (a fixed one collided when the region drew it).
    const abroad = freshCountry();
    const grown = await t.admin('POST', `/admin/regions/${region.id}`, { countries: [country, abroad] });
    expect(grown.statusCode, grown.body).toBe(200);
    await store.store.cart.update(cart.id, { shipping_address: { ...address('Abroad', 'xx'), country_code: abroad } });
    const res = await t.store('POST', `/store/carts/${cart.id}/complete`);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toContain('no longer available');
  });
});
