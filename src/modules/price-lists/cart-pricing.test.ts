import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { makeCart, makeProduct, makeRegion } from '../checkout/checkout.testing.ts';
import { bearer, signUpCustomer } from '../customers/customers.testing.ts';
import { makeGroup, makePriceList } from './price-lists.testing.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

type Line = { id: string; variant_id: string; quantity: number; unit_price: number };
const linesOf = (res: { statusCode: number; body: string; json(): { cart: { items: Line[] } } }) => {
  expect(res.statusCode, res.body).toBe(200);
  return res.json().cart.items;
};

/**
 * A product at 1500 eur, 1200 from 3 units (a price list for all), and 1000 for the members of a
 * group (a price list of its own) whose one member is `vip`.
 */
async function tieredAndGroupPrices() {
  const region = await makeRegion(t, { currency: 'eur' });
  const { variant } = await makeProduct(t, { prices: [{ currency_code: 'eur', amount: 1500 }], stock: 100 });
  await makePriceList(t, {
    prices: [{ variant_id: variant.id, currency_code: 'eur', amount: 1200, min_quantity: 3 }],
  });
  const vip = await signUpCustomer(t);
  const group = await makeGroup(t, [vip.customer.id]);
  await makePriceList(t, {
    rules: { 'customer.groups.id': [group.id] },
    prices: [{ variant_id: variant.id, currency_code: 'eur', amount: 1000 }],
  });
  return { region, variant, vip };
}

describe('cart line prices', () => {
  it('follow quantity tiers and group price lists when lines change and when the customer signs in', async () => {
    const { region, variant, vip } = await tieredAndGroupPrices();

    const cart = await makeCart(t, { region_id: region.id });
    const add = (quantity: number, headers?: Record<string, string>) =>
      t.store('POST', `/store/carts/${cart.id}/line-items`, { variant_id: variant.id, quantity }, { headers });
    const [line] = linesOf(await add(1));
    expect(line.unit_price).toBe(1500);
    const setQuantity = (quantity: number, headers?: Record<string, string>) =>
      t.store('POST', `/store/carts/${cart.id}/line-items/${line.id}`, { quantity }, { headers });
    expect(linesOf(await setQuantity(3))[0].unit_price).toBe(1200);
    expect(linesOf(await add(2))[0]).toMatchObject({ quantity: 5, unit_price: 1200 });
    expect(linesOf(await setQuantity(1))[0].unit_price).toBe(1500);

    // Signing in moves the cart to the customer: their group's list prices it.
    const moved = await t.store('POST', `/store/carts/${cart.id}/customer`, undefined, { headers: bearer(vip.token) });
    expect(linesOf(moved)[0].unit_price).toBe(1000);
    const read = await t.store('GET', `/store/carts/${cart.id}`, undefined, { headers: bearer(vip.token) });
    expect(read.json().cart).toMatchObject({ item_total: 1000, total: 1000 });

    // A signed-in customer's own new cart is priced for their groups from the first line.
    const own = await makeCart(t, { region_id: region.id }, bearer(vip.token));
    const added = await t.store(
      'POST',
      `/store/carts/${own.id}/line-items`,
      { variant_id: variant.id, quantity: 4 },
      { headers: bearer(vip.token) },
    );
    expect(linesOf(added)[0].unit_price).toBe(1000);
  });

  it('follow quantity tiers on the variant’s own prices (admin writes take min_quantity/max_quantity)', async () => {
    const region = await makeRegion(t, { currency: 'eur' });
    const { product, variant } = await makeProduct(t, { stock: 100 });
    const prices = [
      { currency_code: 'eur', amount: 1500 },
      { currency_code: 'eur', amount: 1300, min_quantity: 5 },
      { currency_code: 'eur', amount: 1100, min_quantity: 10, max_quantity: 20 },
    ];
    const res = await t.admin('POST', `/admin/products/${product.id}`, { variants: [{ id: variant.id, prices }] });
    expect(res.statusCode, res.body).toBe(200);
    const admin = await t.admin('GET', `/admin/products/${product.id}`);
    const shown = admin
      .json()
      .product.variants[0].prices.map(
        (p: { amount: number; min_quantity: number | null; max_quantity: number | null }) => [
          p.amount,
          p.min_quantity,
          p.max_quantity,
        ],
      );
    expect(shown).toEqual([
      [1500, null, null],
      [1300, 5, null],
      [1100, 10, 20],
    ]);
    const store = await t.store('GET', `/store/products/${product.id}?region_id=${region.id}`);
    expect(store.json().product.variants[0].calculated_price.calculated_amount).toBe(1500);

    const cart = await makeCart(t, { region_id: region.id });
    const [line] = linesOf(
      await t.store('POST', `/store/carts/${cart.id}/line-items`, { variant_id: variant.id, quantity: 5 }),
    );
    expect(line.unit_price).toBe(1300);
    const setQuantity = (quantity: number) =>
      t.store('POST', `/store/carts/${cart.id}/line-items/${line.id}`, { quantity });
    expect(linesOf(await setQuantity(12))[0].unit_price).toBe(1100);
    expect(linesOf(await setQuantity(25))[0].unit_price).toBe(1300);
    expect(linesOf(await setQuantity(2))[0].unit_price).toBe(1500);

    const twice = await t.admin('POST', `/admin/products/${product.id}`, {
      variants: [{ id: variant.id, prices: [prices[1], { ...prices[1], amount: 1 }] }],
    });
    expect(twice.statusCode).toBe(400);
    const backwards = await t.admin('POST', `/admin/products/${product.id}`, {
      variants: [{ id: variant.id, prices: [{ currency_code: 'eur', amount: 1, min_quantity: 5, max_quantity: 2 }] }],
    });
    expect(backwards.statusCode).toBe(400);
  });

  it('price the items a cart is created with, for the customer and the summed quantity', async () => {
    const { region, variant, vip } = await tieredAndGroupPrices();
    const items = (...quantities: number[]) => quantities.map((quantity) => ({ variant_id: variant.id, quantity }));

    const guest = await makeCart(t, { region_id: region.id, items: items(1) });
    expect(guest.items[0].unit_price).toBe(1500);
    const bulk = await makeCart(t, { region_id: region.id, items: items(1, 2) });
    expect(bulk.items).toHaveLength(1);
    expect(bulk.items[0]).toMatchObject({ quantity: 3, unit_price: 1200 });
    expect(bulk).toMatchObject({ item_total: 3600 });
    const own = await makeCart(t, { region_id: region.id, items: items(1) }, bearer(vip.token));
    expect(own.items[0].unit_price).toBe(1000);
    const read = await t.store('GET', `/store/carts/${own.id}`, undefined, { headers: bearer(vip.token) });
    expect(linesOf(read)[0].unit_price).toBe(1000);
  });

  it('are priced again on a region change: the new region’s list prices and tiers', async () => {
    const home = await makeRegion(t, { currency: 'eur' });
    const abroad = await makeRegion(t, { currency: 'eur' });
    const dollars = await makeRegion(t, { currency: 'usd' });
    const { product, variant } = await makeProduct(t, { stock: 100 });
    const prices = [
      { currency_code: 'eur', amount: 1500 },
      { currency_code: 'usd', amount: 1700 },
      { currency_code: 'usd', amount: 1600, min_quantity: 2 },
    ];
    const priced = await t.admin('POST', `/admin/products/${product.id}`, { variants: [{ id: variant.id, prices }] });
    expect(priced.statusCode, priced.body).toBe(200);
    await makePriceList(t, {
      prices: [{ variant_id: variant.id, currency_code: 'eur', amount: 1100, rules: { region_id: abroad.id } }],
    });
    const cart = await makeCart(t, { region_id: home.id, items: [{ variant_id: variant.id, quantity: 2 }] });
    expect(cart.items[0].unit_price).toBe(1500);
    const move = (region_id: string) => t.store('POST', `/store/carts/${cart.id}`, { region_id });
    expect(linesOf(await move(abroad.id))[0].unit_price).toBe(1100);
    expect(linesOf(await move(dollars.id))[0].unit_price).toBe(1600);
    expect(linesOf(await move(home.id))[0].unit_price).toBe(1500);
  });
});
