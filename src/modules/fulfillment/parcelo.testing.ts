import { expect } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { startParceloStandIn, type ParceloStandIn } from '../../../test/parcelo-stand-in.ts';
import { defaultChannelId, makeRegion, uniq } from '../checkout/checkout.testing.ts';
import { packExample } from '../marketplace/marketplace.testing.ts';
import { installAndWait, shopEnv, startMarketplace } from '../plugins/plugins.testing.ts';

// biome-ignore lint/suspicious/noExplicitAny: answers read as JSON
type Json = any;

/**
 * A shop with the example parcelo-shipping plugin installed from a real marketplace and configured
 * against a local stand-in of the carrier's API (tests only): a region, a warehouse serving the
 * default channel, a zone of the region's country with a calculated Parcelo option, and a mug.
 */
export interface ParceloShop {
  parcelo: ParceloStandIn;
  t: TestApp;
  region: { id: string; countries: { iso_2: string }[] };
  location: { id: string; name: string };
  zoneId: string;
  option: Json;
  variantId: string;
  /** Points the plugin at the stand-in with `apiKey` (a wrong one makes the carrier refuse). */
  configure(apiKey: string): Promise<void>;
  /** A guest's cart of `quantity` mugs, shipped by the Parcelo option, completed into an order. */
  placeOrder(quantity: number): Promise<Json>;
  /**
   * The carrier misses the shop's deadline once: `send` runs with a short deadline while the
   * stand-in holds its request to `path`; its answer (a 504) is returned once the stand-in is
   * released, which then makes what it was asked all the same.
   */
  timeOutOnce<T>(path: string, send: () => Promise<T>): Promise<T>;
  /** An order of `quantity` mugs, all fulfilled (a return asks back fulfilled units only). */
  fulfilledOrder(quantity: number): Promise<Json>;
  /** A Parcelo return option of the zone: at a flat price (minor units), or `calculated` (the carrier quotes it). */
  makeReturnOption(price: number | 'calculated'): Promise<Json>;
  /** What the stand-in charges for a parcel of `units` mugs to the region's country. */
  rate(units: number): number;
  /** The rate requests the carrier was sent so far. */
  rateAsks(): ParceloStandIn['requests'];
  close(): Promise<void>;
}

export async function startParceloShop(): Promise<ParceloShop> {
  const parcelo = await startParceloStandIn();
  const m = await startMarketplace();
  const t = await startTestApp({ env: shopEnv(m) });
  await m.publish(await packExample('parcelo-shipping'));
  const plugin = await installAndWait(t, '@acme/parcelo-shipping');
  expect(plugin.status, plugin.error).toBe('installed');
  const configure = async (apiKey: string) => {
    const res = await t.admin('POST', `/admin/plugins/${plugin.id}/configure`, {
      config: { api_key: apiKey, api_base: parcelo.url },
    });
    expect(res.statusCode, res.body).toBe(200);
    await t.app.plugins.settled();
  };
  await configure(parcelo.apiKey);

  const region = await makeRegion(t);
  const location = (await t.admin('POST', '/admin/stock-locations', { name: 'Warehouse' })).json().stock_location;
  await t.admin('POST', `/admin/stock-locations/${location.id}/sales-channels`, { add: [await defaultChannelId(t)] });
  const set = (
    await t.admin('POST', `/admin/stock-locations/${location.id}/fulfillment-sets`, {
      name: 'Parcels',
      type: 'shipping',
    })
  ).json().stock_location.fulfillment_sets[0];
  const zone = (
    await t.admin('POST', `/admin/fulfillment-sets/${set.id}/service-zones`, {
      name: 'Home',
      geo_zones: [{ type: 'country', country_code: region.countries[0].iso_2 }],
    })
  ).json().fulfillment_set.service_zones[0];
  const created = await t.admin('POST', '/admin/shipping-options', {
    name: 'Parcelo 48h',
    service_zone_id: zone.id,
    shipping_profile_id: 'sp_default',
    provider_id: 'fp_parcelo',
    price_type: 'calculated',
    data: { id: 'parcel' },
    type: { label: 'Parcel', code: 'parcel' },
  });
  expect(created.statusCode, created.body).toBe(200);
  const option = created.json().shipping_option;
  const product = await t.admin('POST', '/admin/products', {
    title: `Mug ${uniq()}`,
    status: 'published',
    sales_channels: [{ id: await defaultChannelId(t) }],
    variants: [{ title: 'One', manage_inventory: false, prices: [{ currency_code: 'eur', amount: 1200 }] }],
  });
  const variantId = product.json().product.variants[0].id;

  const placeOrder = async (quantity: number) => {
    const cart = (
      await t.store('POST', '/store/carts', {
        region_id: region.id,
        email: `shopper-${uniq()}@example.com`,
        items: [{ variant_id: variantId, quantity }],
        shipping_address: {
          address_1: 'Hafenstraße 1',
          city: 'Hamburg',
          postal_code: '20095',
          country_code: region.countries[0].iso_2,
        },
      })
    ).json().cart;
    const chosen = await t.store('POST', `/store/carts/${cart.id}/shipping-methods`, { option_id: option.id });
    expect(chosen.statusCode, chosen.body).toBe(200);
    const done = await t.store('POST', `/store/carts/${cart.id}/complete`);
    expect(done.json().type, done.body).toBe('order');
    return done.json().order;
  };

  const fulfilledOrder = async (quantity: number) => {
    const order = await placeOrder(quantity);
    const res = await t.admin('POST', `/admin/orders/${order.id}/fulfillments`, {
      items: [{ id: order.items[0].id, quantity }],
    });
    expect(res.statusCode, res.body).toBe(200);
    return order;
  };

  const makeReturnOption = async (price: number | 'calculated') => {
    const made = await t.admin('POST', '/admin/shipping-options', {
      name: price === 'calculated' ? 'Parcelo return, priced by Parcelo' : 'Parcelo return',
      service_zone_id: zone.id,
      shipping_profile_id: 'sp_default',
      provider_id: 'fp_parcelo',
      ...(price === 'calculated'
        ? { price_type: 'calculated' }
        : { price_type: 'flat', prices: [{ currency_code: 'eur', amount: price }] }),
      data: { id: 'parcel-return' },
      type: { label: 'Return', code: 'return' },
      rules: [{ attribute: 'is_return', operator: 'eq', value: 'true' }],
    });
    expect(made.statusCode, made.body).toBe(200);
    return made.json().shipping_option;
  };

  return {
    parcelo,
    t,
    region,
    location,
    zoneId: zone.id,
    option,
    variantId,
    configure,
    placeOrder,
    async timeOutOnce(path, send) {
      const providers = t.app.providers;
      const usual = providers.timeoutMs;
      providers.timeoutMs = 300;
      const slow = parcelo.hold(path);
      try {
        const answer = send();
        await slow.arrived;
        return await answer;
      } finally {
        providers.timeoutMs = usual;
        slow.release();
      }
    },
    fulfilledOrder,
    makeReturnOption,
    rate: (units) => 490 + 150 * (units - 1) + (region.countries[0].iso_2 === 'de' ? 0 : 900),
    rateAsks: () => parcelo.requests.filter((r) => r.path === '/v1/rates'),
    close: async () => {
      await t.close();
      await m.close();
      await parcelo.close();
    },
  };
}
