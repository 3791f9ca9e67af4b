import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/app.ts';
import type { ParceloStandIn } from '../../../test/parcelo-stand-in.ts';
import { uniq } from '../checkout/checkout.testing.ts';
import { startParceloShop, type ParceloShop } from './parcelo.testing.ts';

// biome-ignore lint/suspicious/noExplicitAny: answers read as JSON
type Json = any;

/**
 * The example parcelo-shipping plugin installed from a real marketplace, configured against a
 * local stand-in of the carrier's API: a calculated option quoted at checkout, a label and a
 * tracking number on the order when the desk fulfils, the shipment canceled with the fulfilment.
 */

let shop: ParceloShop;
let parcelo: ParceloStandIn;
let t: TestApp;
let region: ParceloShop['region'];
let option: Json;
let variantId: string;
const configure = (apiKey: string) => shop.configure(apiKey);

beforeAll(async () => {
  shop = await startParceloShop();
  ({ parcelo, t, region, option, variantId } = shop);
}, 300_000);
afterAll(() => shop?.close());

const expectedRate = (units: number) => shop.rate(units);

describe('the parcelo-shipping plugin', () => {
  it('registers fp_parcelo with the options its carrier lists', async () => {
    const list = (await t.admin('GET', '/admin/fulfillment-providers')).json();
    expect(list.fulfillment_providers).toContainEqual({
      id: 'fp_parcelo',
      is_enabled: true,
      name: 'Parcelo',
      plugin: expect.any(String),
    });
    const options = (await t.admin('GET', '/admin/fulfillment-providers/fp_parcelo/options')).json();
    expect(options.fulfillment_options).toEqual([
      { id: 'parcel', name: 'Parcel 48h', is_return: false },
      { id: 'parcel-return', name: 'Return parcel', is_return: true },
    ]);
    // The manual provider cannot quote: a calculated option of it is refused.
    const manual = await t.admin('POST', '/admin/shipping-options', {
      name: 'x',
      service_zone_id: option.service_zone_id,
      price_type: 'calculated',
    });
    expect(manual.json()).toMatchObject({ code: 'fulfillment_provider_cannot_calculate' });
  });

  it('rate quote at checkout → label and tracking number on the order → canceled at the carrier', async () => {
    const cart = (
      await t.store('POST', '/store/carts', {
        region_id: region.id,
        email: `shopper-${uniq()}@example.com`,
        items: [{ variant_id: variantId, quantity: 2 }],
        shipping_address: {
          address_1: 'Hafenstraße 1',
          city: 'Hamburg',
          postal_code: '20095',
          country_code: region.countries[0].iso_2,
        },
      })
    ).json().cart;
    const listed = (await t.store('GET', `/store/shipping-options?cart_id=${cart.id}`)).json().shipping_options;
    expect(listed).toEqual([expect.objectContaining({ id: option.id, price_type: 'calculated', amount: null })]);
    expect(listed[0].calculated_price).toBeUndefined();

    const quote = await t.store('POST', `/store/shipping-options/${option.id}/calculate`, { cart_id: cart.id });
    expect(quote.statusCode, quote.body).toBe(200);
    expect(quote.json().shipping_option.calculated_price).toMatchObject({
      calculated_amount: expectedRate(2),
      currency_code: 'eur',
    });
    expect(parcelo.requests.at(-1)).toMatchObject({
      path: '/v1/rates',
      body: { service: 'parcel', to: { country: region.countries[0].iso_2.toUpperCase(), postcode: '20095' } },
    });

    // The carrier refuses a pickup point it does not know: nothing changes on the cart.
    const bad = await t.store('POST', `/store/carts/${cart.id}/shipping-methods`, {
      option_id: option.id,
      data: { pickup_point: 'nowhere' },
    });
    expect(bad.statusCode).toBe(502);
    expect(bad.json()).toMatchObject({ code: 'fulfillment_provider_failed' });
    const chosen = await t.store('POST', `/store/carts/${cart.id}/shipping-methods`, {
      option_id: option.id,
      data: { pickup_point: 'PP-12345' },
    });
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect(chosen.json().cart.shipping_methods).toEqual([
      expect.objectContaining({
        shipping_option_id: option.id,
        amount: expectedRate(2),
        data: { pickup_point: 'PP-12345' },
      }),
    ]);
    expect(chosen.json().cart.total).toBe(2400 + expectedRate(2));
    const done = await t.store('POST', `/store/carts/${cart.id}/complete`);
    expect(done.json().type, done.body).toBe('order');
    const order = done.json().order;

    // A wrong key at the carrier: the desk's fulfilment is refused and nothing is written.
    await configure('pk_wrong');
    const refused = await t.admin('POST', `/admin/orders/${order.id}/fulfillments`, {
      items: [{ id: order.items[0].id, quantity: 2 }],
    });
    expect(refused.statusCode).toBe(502);
    expect(refused.json().message).toContain('Invalid API key');
    expect((await t.admin('GET', `/admin/orders/${order.id}`)).json().order.fulfillments).toEqual([]);
    await configure(parcelo.apiKey);

    const fulfilled = await t.admin('POST', `/admin/orders/${order.id}/fulfillments`, {
      items: [{ id: order.items[0].id, quantity: 2 }],
    });
    expect(fulfilled.statusCode, fulfilled.body).toBe(200);
    const [f] = fulfilled.json().order.fulfillments;
    const shipment = [...parcelo.shipments.values()].find((s) => s.reference === f.id);
    expect(shipment).toBeDefined();
    expect(f).toMatchObject({
      provider_id: 'fp_parcelo',
      shipping_option_id: option.id,
      data: { shipment_id: shipment?.id, service: 'parcel' },
      labels: [
        {
          tracking_number: shipment?.tracking_number,
          tracking_url: `https://track.parcelo.example/${shipment?.tracking_number}`,
          label_url: `https://labels.parcelo.example/${shipment?.id}.pdf`,
        },
      ],
    });
    expect(shipment?.parcels).toEqual([{ description: order.items[0].title, quantity: 2 }]);

    const canceled = await t.admin('POST', `/admin/orders/${order.id}/fulfillments/${f.id}/cancel`);
    expect(canceled.statusCode, canceled.body).toBe(200);
    expect(parcelo.shipments.get(shipment?.id as string)?.status).toBe('canceled');
  });
});
