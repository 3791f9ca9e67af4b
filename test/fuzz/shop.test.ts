import type { TestApp } from '../app.ts';
import { fuzzSurface } from './fuzz.testing.ts';

/** A small shop with one of everything, so generated ids hit real rows (of the right and the wrong kind). */
async function seedShop(t: TestApp): Promise<string[]> {
  const ids: string[] = [];
  const keep = (v: unknown) => {
    if (typeof v === 'string') ids.push(v);
    return v;
  };
  const region = (
    await t.admin('POST', '/admin/regions', { name: 'EU', currency_code: 'eur', countries: ['de'] })
  ).json().region;
  keep(region.id);
  const channel = (await t.admin('GET', '/admin/sales-channels')).json().sales_channels[0].id;
  keep(channel);
  const product = (
    await t.admin('POST', '/admin/products', {
      title: 'Fuzzed shirt',
      status: 'published',
      sales_channels: [{ id: channel }],
      options: [{ title: 'Size', values: ['M'] }],
      variants: [
        {
          title: 'M',
          options: { Size: 'M' },
          prices: [{ currency_code: 'eur', amount: 1000 }],
          inventory_quantity: 100,
        },
      ],
    })
  ).json().product;
  keep(product?.id);
  keep(product?.variants?.[0]?.id);
  const cart = (
    await t.store('POST', '/store/carts', {
      email: 'fuzz@example.com',
      items: [{ variant_id: product.variants[0].id, quantity: 1 }],
    })
  ).json().cart;
  keep(cart?.id);
  keep(cart?.items?.[0]?.id);
  const order = (await t.store('POST', `/store/carts/${cart.id}/complete`)).json().order;
  keep(order?.id);
  keep((await t.store('POST', '/store/carts', { email: 'open@example.com' })).json().cart?.id);
  keep((await t.admin('POST', '/admin/customers', { email: 'fuzz-customer@example.com' })).json().customer?.id);
  keep(
    (await t.admin('POST', '/admin/shipping-options', { name: 'Flat', region_id: region.id, amount: 500 })).json()
      .shipping_option?.id,
  );
  keep(
    (await t.admin('POST', '/admin/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['*'] })).json().webhook?.id,
  );
  keep((await t.admin('POST', '/admin/api-keys', { title: 'fuzz', type: 'secret' })).json().api_key?.id);
  await t.admin('POST', '/admin/settings', { key: 'fuzz', value: 'x' });
  ids.push('fuzz', 'pp_system_default', 'user_01ARZ3NDEKTSV4RRFFQ69G5FAV', 'prod_does_not_exist');
  return ids;
}

fuzzSurface('shop', {}, seedShop);
