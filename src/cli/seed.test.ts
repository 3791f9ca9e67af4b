import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/app.ts';
import { seedStore } from './seed.ts';
import { bootstrap, newShopHint } from '../bootstrap.ts';
import { storageFor } from '../modules/uploads/storage.ts';
import { CATEGORIES, COLLECTIONS, PRODUCTS, REGION, REGIONS, SHIPPING, STOCK } from './seed-data.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { AMOUNT_UNITS: 'major' } });
});
afterAll(() => t.close());

describe('emporium seed', () => {
  it('makes a store ready to browse, and a second run changes nothing', async () => {
    const storage = storageFor(t.config.storage, t.config.publicUrl);
    const first = await seedStore(t.ctx, storage);
    expect(first.created).toEqual([
      ...REGIONS.flatMap((r) => [
        `region ${r.name} (${r.countries.join(', ')})`,
        ...SHIPPING.map((s) => `shipping ${s.name} (${r.name})`),
      ]),
      ...COLLECTIONS.map((c) => `collection ${c.title}`),
      ...CATEGORIES.map((c) => `category ${c}`),
      ...PRODUCTS.map((p) => `product ${p.handle}`),
    ]);
    const again = await seedStore(t.ctx, storage);
    expect(again.created).toEqual([]);
    expect(again.regionId).toBe(first.regionId);

    const regions = (await t.store('GET', '/store/regions')).json().regions;
    expect(regions.map((r: { name: string; currency_code: string }) => [r.name, r.currency_code]).sort()).toEqual([
      ['Europe', 'eur'],
      ['United States', 'usd'],
    ]);
    const europe = regions.find((r: { id: string }) => r.id === first.regionId);
    expect(europe.countries.map((c: { iso_2: string }) => c.iso_2).sort()).toEqual([...REGION.countries].sort());

    const list = await t.store('GET', `/store/products?region_id=${first.regionId}&limit=10`);
    expect(list.json().count).toBe(PRODUCTS.length);
    const tee = list.json().products.find((p: { handle: string }) => p.handle === 't-shirt');
    expect(tee.options.map((o: { title: string }) => o.title)).toEqual(['Size', 'Color']);
    expect(tee.variants).toHaveLength(8);
    // Pictures drawn at seed time and served by the shop itself: no internet needed.
    expect(tee.images.map((i: { url: string }) => i.url)).toEqual(
      PRODUCTS[0].images.map((i) => `${t.config.publicUrl}/static/uploads/${i.file}`),
    );
    expect(tee.thumbnail).toBe(tee.images[0].url);
    const picture = await t.inject({ method: 'GET', url: new URL(tee.thumbnail).pathname });
    expect(picture.statusCode).toBe(200);
    expect(picture.rawPayload.subarray(1, 4).toString()).toBe('PNG');

    // Medusa's starter home page: collections, each with products.
    const collections = (await t.store('GET', '/store/collections')).json().collections;
    expect(collections.map((c: { handle: string }) => c.handle).sort()).toEqual(
      COLLECTIONS.map((c) => c.handle).sort(),
    );
    for (const c of collections) {
      const inIt = await t.store('GET', `/store/products?collection_id[]=${c.id}&region_id=${first.regionId}`);
      expect(inIt.json().count).toBeGreaterThan(0);
    }
    const us = regions.find((r: { name: string }) => r.name === 'United States');
    const usCart = await t.store('POST', '/store/carts', { region_id: us.id });
    const usOptions = await t.store('GET', `/store/shipping-options?cart_id=${usCart.json().cart.id}`);
    expect(usOptions.json().shipping_options).toHaveLength(SHIPPING.length);
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
