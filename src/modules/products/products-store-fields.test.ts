import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { makeCart, makeProduct, makeRegion } from '../checkout/checkout.testing.ts';

/**
 * `fields` as Medusa's storefront sends it (platform/http/fields.ts): expressions that only add
 * keep the full shape (and its cached text), plain names answer only those (plus ids), `-name`
 * removes. The home page's handle list is the case that matters: it must shrink.
 */
let t: TestApp;
let region: { id: string };
const handles: string[] = [];

beforeAll(async () => {
  t = await startTestApp();
  region = await makeRegion(t, { currency: 'eur' });
  for (let i = 0; i < 6; i++) handles.push((await makeProduct(t)).product.handle);
});
afterAll(() => t.close());

const get = async (url: string) => {
  const res = await t.store('GET', url);
  return { status: res.statusCode, body: res.body, json: res.json() };
};

describe('store products fields', () => {
  it('fields=handle answers only ids and handles, far smaller, the same again from the cache', async () => {
    const full = await get(`/store/products?limit=100&offset=0&region_id=${region.id}`);
    const url = `/store/products?limit=100&offset=0&region_id=${region.id}&fields=handle`;
    const slim = await get(url);
    expect(slim.status).toBe(200);
    expect(slim.json.count).toBe(full.json.count);
    expect(slim.json.limit).toBe(100);
    expect(slim.json.offset).toBe(0);
    expect(slim.json.products.length).toBe(full.json.products.length);
    for (const p of slim.json.products) expect(Object.keys(p).sort()).toEqual(['handle', 'id']);
    expect(slim.json.products.map((p: { handle: string }) => p.handle).sort()).toEqual(
      full.json.products.map((p: { handle: string }) => p.handle).sort(),
    );
    expect(slim.body.length * 10).toBeLessThan(full.body.length);
    expect((await get(url)).body).toBe(slim.body);
    // The full shape is not disturbed by the shaped answer kept beside it.
    expect((await get(`/store/products?limit=100&offset=0&region_id=${region.id}`)).body).toBe(full.body);
  });

  it('the storefront product expression only adds: the full shape, byte for byte', async () => {
    const base = `/store/products?limit=12&offset=0&region_id=${region.id}&handle=${handles[0]}`;
    const plain = await get(base);
    const withFields = await get(
      `${base}&fields=${encodeURIComponent('*variants.calculated_price,+variants.inventory_quantity,*variants.images,+metadata,+tags,')}`,
    );
    expect(withFields.status).toBe(200);
    expect(withFields.body).toBe(plain.body);
    expect(plain.json.products[0].variants[0].calculated_price).toBeTruthy();
    // A `+` that arrives unencoded is a space: still an addition, as Medusa reads it.
    expect((await get(`${base}&fields=+metadata`)).body).toBe(plain.body);
  });

  it('plain names with dotted paths and stars: only those, ids at every level; unknown names are ignored', async () => {
    const res = await get(`/store/products?handle=${handles[1]}&region_id=${region.id}&fields=title,variants.sku,nope`);
    expect(res.status).toBe(200);
    const [p] = res.json.products;
    expect(Object.keys(p).sort()).toEqual(['id', 'title', 'variants']);
    expect(Object.keys(p.variants[0]).sort()).toEqual(['id', 'sku']);
    // `*variants`: the relation whole, prices included.
    const star = await get(`/store/products?handle=${handles[1]}&region_id=${region.id}&fields=handle,*variants`);
    const [q] = star.json.products;
    expect(Object.keys(q).sort()).toEqual(['handle', 'id', 'variants']);
    expect(q.variants[0].calculated_price.calculated_amount).toBe(1500);
    expect(q.variants[0].title).toBe('M');
  });

  it('-name removes a field and keeps the rest; a product by id is shaped too', async () => {
    const list = await get(`/store/products?handle=${handles[2]}&fields=-description,-variants.sku`);
    const [p] = list.json.products;
    expect('description' in p).toBe(false);
    expect('sku' in p.variants[0]).toBe(false);
    expect(p.title).toBeTruthy();
    expect(p.variants[0].title).toBeTruthy();
    const one = await get(`/store/products/${p.id}?fields=handle`);
    expect(one.json).toEqual({ product: { id: p.id, handle: handles[2] } });
  });

  it('a malformed expression is a 400 with its code', async () => {
    const res = await get('/store/products?fields=a%3Bdrop');
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('invalid_field_selection');
  });
});

describe('fields on the other store reads', () => {
  it('categories, collections, regions, carts: plain names answer only those; additions keep the shape', async () => {
    const cat = await t.admin('POST', '/admin/product-categories', { name: 'Shirts', is_active: true });
    expect(cat.statusCode, cat.body).toBe(200);
    const cats = await get('/store/product-categories?fields=name&limit=100');
    expect(cats.status).toBe(200);
    for (const c of cats.json.product_categories) expect(Object.keys(c).sort()).toEqual(['id', 'name']);
    expect(typeof cats.json.count).toBe('number');
    const full = await get(
      `/store/product-categories?fields=${encodeURIComponent('*category_children, *products, *parent_category, *parent_category.parent_category')}&limit=100`,
    );
    expect(full.json.product_categories[0].category_children).toBeDefined();
    expect(full.json.product_categories[0].handle).toBeDefined();

    const col = await t.admin('POST', '/admin/collections', { title: 'Summer' });
    expect(col.statusCode, col.body).toBe(200);
    const cols = await get('/store/collections?fields=handle&limit=100&offset=0');
    for (const c of cols.json.collections) expect(Object.keys(c).sort()).toEqual(['handle', 'id']);

    const cart = await makeCart(t, { region_id: region.id });
    const shaped = await get(`/store/carts/${cart.id}?fields=email,region.currency_code`);
    expect(shaped.status).toBe(200);
    expect(shaped.json).toEqual({
      cart: { id: cart.id, email: null, region: { id: region.id, currency_code: 'eur' } },
    });
    const additive = await get(`/store/carts/${cart.id}?fields=${encodeURIComponent('*items, *region, +items.total')}`);
    expect(additive.json.cart.total).toBeDefined();
  });
});
