import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/app.ts';
import { seedStore } from './seed.ts';
import { bootstrap, newShopHint } from '../bootstrap.ts';
import { CATEGORIES, PRODUCTS, REGION, SHIPPING, STOCK } from './seed-data.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { AMOUNT_UNITS: 'major' } });
});
afterAll(() => t.close());

describe('emporium seed', () => {
  it('makes a store ready to browse, and a second run changes nothing', async () => {
    const first = await seedStore(t.ctx);
    expect(first.created).toEqual([
      `region Europe (${REGION.countries.join(', ')})`,
      ...SHIPPING.map((s) => `shipping ${s.name}`),
      ...CATEGORIES.map((c) => `category ${c}`),
      ...PRODUCTS.map((p) => `product ${p.handle}`),
    ]);
    const again = await seedStore(t.ctx);
    expect(again.created).toEqual([]);
    expect(again.regionId).toBe(first.regionId);

    const regions = (await t.store('GET', '/store/regions')).json().regions;
    expect(regions).toHaveLength(1);
    expect(regions[0]).toMatchObject({ name: 'Europe', currency_code: 'eur' });
    expect(regions[0].countries.map((c: { iso_2: string }) => c.iso_2).sort()).toEqual([...REGION.countries].sort());

    const list = await t.store('GET', `/store/products?region_id=${first.regionId}&limit=10`);
    expect(list.json().count).toBe(PRODUCTS.length);
    const tee = list.json().products.find((p: { handle: string }) => p.handle === 't-shirt');
    expect(tee.options.map((o: { title: string }) => o.title)).toEqual(['Size', 'Color']);
    expect(tee.variants).toHaveLength(8);
    expect(tee.thumbnail).toMatch(/^https:\/\//);
    expect(tee.images.map((i: { url: string }) => i.url)).toEqual(PRODUCTS[0].images);
    expect(tee.categories.map((c: { name: string }) => c.name)).toEqual([PRODUCTS[0].category]);
    const shirts = (await t.store('GET', '/store/product-categories?handle=shirts')).json().product_categories;
    expect(shirts).toHaveLength(1);
    const inShirts = await t.store('GET', `/store/products?category_id[]=${shirts[0].id}`);
    expect(inShirts.json().products.map((p: { handle: string }) => p.handle)).toContain('t-shirt');
    expect(tee.variants[0]).toMatchObject({
      inventory_quantity: STOCK,
      calculated_price: { calculated_amount: 10, currency_code: 'eur' },
    });

    const cart = await t.store('POST', '/store/carts', { region_id: first.regionId });
    const options = (await t.store('GET', `/store/shipping-options?cart_id=${cart.json().cart.id}`)).json();
    expect(options.shipping_options.map((o: { name: string; amount: number }) => [o.name, o.amount])).toEqual([
      ['Standard Shipping', 10],
      ['Express Shipping', 15],
    ]);
  });

  it("a new shop's first start says how to seed it and run Medusa's storefront; later starts do not", async () => {
    const later = await bootstrap(t.ctx, t.config);
    expect(later.newShop).toBeUndefined();
    const hint = newShopHint(t.config, t.publishableKey);
    expect(hint).toContain('npx emporium seed');
    expect(hint).toContain('AMOUNT_UNITS=major');
    expect(hint).toContain(`NEXT_PUBLIC_MEDUSA_PUBLISHABLE_KEY=${t.publishableKey}`);
    expect(hint).toContain(`MEDUSA_BACKEND_URL=${t.config.publicUrl}`);
  });
});
