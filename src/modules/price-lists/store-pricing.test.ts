import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { bearer, signUpCustomer } from '../customers/customers.testing.ts';
import { defaultChannelId, insertRegion } from '../products/products.testing.ts';
import { makeGroup, makePriceList, pricedProduct } from './price-lists.testing.ts';

let t: TestApp;
let channel: string;
let region: string;
beforeAll(async () => {
  t = await startTestApp();
  channel = await defaultChannelId(t);
  region = await insertRegion(t, 'usd');
});
afterAll(() => t.close());

interface Calculated {
  calculated_amount: number;
  original_amount: number;
  is_calculated_price_price_list: boolean;
  is_original_price_price_list: boolean;
  calculated_price: { id: string; price_list_id: string | null; price_list_type: string | null };
  original_price: { id: string; price_list_id: string | null };
}

/** The variant's calculated_price through the list, the product and the variant routes (all must agree). */
async function priceOf(productId: string, token?: string): Promise<Calculated> {
  const headers = token ? bearer(token) : undefined;
  const list = await t.store('GET', `/store/products?id=${productId}&region_id=${region}`, undefined, { headers });
  expect(list.statusCode, list.body).toBe(200);
  const fromList = list.json().products[0].variants[0].calculated_price;
  const one = await t.store('GET', `/store/products/${productId}?region_id=${region}`, undefined, { headers });
  expect(one.json().product.variants[0].calculated_price).toEqual(fromList);
  const variantId = one.json().product.variants[0].id;
  const v = await t.store('GET', `/store/product-variants/${variantId}?region_id=${region}`, undefined, { headers });
  expect(v.json().variant.calculated_price).toEqual(fromList);
  return fromList;
}

describe('calculated_price with price lists', () => {
  it('picks an open sale, a group list for its members only, never leaking through the cache', async () => {
    const { product, variant } = await pricedProduct(t, channel, { usd: 1000 });
    const base = variant.prices[0].id;
    const plain = await priceOf(product.id);
    expect(plain).toMatchObject({
      calculated_amount: 1000,
      original_amount: 1000,
      is_calculated_price_price_list: false,
    });

    const sale = await makePriceList(t, { prices: [{ variant_id: variant.id, currency_code: 'usd', amount: 800 }] });
    await makePriceList(t, {
      status: 'draft',
      prices: [{ variant_id: variant.id, currency_code: 'usd', amount: 100 }],
    });
    const guest = await priceOf(product.id);
    expect(guest).toMatchObject({
      id: base,
      calculated_amount: 800,
      original_amount: 1000,
      is_calculated_price_price_list: true,
      is_original_price_price_list: false,
      calculated_price: { id: sale.prices[0].id, price_list_id: sale.id, price_list_type: 'sale' },
      original_price: { id: base, price_list_id: null },
    });

    const vip = await signUpCustomer(t);
    const other = await signUpCustomer(t);
    const group = await makeGroup(t, [vip.customer.id]);
    const vipList = await makePriceList(t, {
      rules: { 'customer.groups.id': [group.id] },
      prices: [{ variant_id: variant.id, currency_code: 'usd', amount: 900 }],
    });
    // A group rule counts as a rule: the group's list comes before the open one, even at a higher amount.
    expect(await priceOf(product.id, vip.token)).toMatchObject({
      calculated_amount: 900,
      calculated_price: { price_list_id: vipList.id },
    });
    expect((await priceOf(product.id)).calculated_amount).toBe(800);
    expect((await priceOf(product.id, other.token)).calculated_amount).toBe(800);
    expect((await priceOf(product.id, vip.token)).calculated_amount).toBe(900);

    // Leaving the group takes the price away.
    await t.admin('POST', `/admin/customer-groups/${group.id}/customers`, { remove: [vip.customer.id] });
    expect((await priceOf(product.id, vip.token)).calculated_amount).toBe(800);
  });

  it('an override sets both amounts; the lowest of equal-rule lists wins; a region price beats a currency one', async () => {
    const { product, variant } = await pricedProduct(t, channel, { usd: 1000 });
    const override = await makePriceList(t, {
      type: 'override',
      prices: [{ variant_id: variant.id, currency_code: 'usd', amount: 1200 }],
    });
    expect(await priceOf(product.id)).toMatchObject({
      calculated_amount: 1200,
      original_amount: 1200,
      is_calculated_price_price_list: true,
      is_original_price_price_list: true,
      original_price: { price_list_id: override.id },
    });
    await makePriceList(t, { prices: [{ variant_id: variant.id, currency_code: 'usd', amount: 1100 }] });
    expect((await priceOf(product.id)).calculated_amount).toBe(1100);
    const regional = await makePriceList(t, {
      prices: [{ variant_id: variant.id, currency_code: 'usd', amount: 1150, rules: { region_id: region } }],
    });
    expect(await priceOf(product.id)).toMatchObject({
      calculated_amount: 1150,
      original_amount: 1000,
      calculated_price: { price_list_id: regional.id },
    });
    // A tier from 2 items on does not price the catalog (Medusa prices a quantity of one there).
    await makePriceList(t, {
      prices: [
        { variant_id: variant.id, currency_code: 'usd', amount: 1, rules: { region_id: region }, min_quantity: 2 },
      ],
    });
    expect((await priceOf(product.id)).calculated_amount).toBe(1150);
  });

  it('follows the list’s window on the clock, with no write in between', async () => {
    const { product, variant } = await pricedProduct(t, channel, { usd: 1000 });
    const now = t.clock.now().getTime();
    await makePriceList(t, {
      starts_at: new Date(now + 3_600_000).toISOString(),
      ends_at: new Date(now + 7_200_000).toISOString(),
      prices: [{ variant_id: variant.id, currency_code: 'usd', amount: 700 }],
    });
    expect((await priceOf(product.id)).calculated_amount).toBe(1000);
    t.clock.advance(3_600_000);
    expect((await priceOf(product.id)).calculated_amount).toBe(700);
    t.clock.advance(3_600_001);
    expect((await priceOf(product.id)).calculated_amount).toBe(1000);
  });
});
