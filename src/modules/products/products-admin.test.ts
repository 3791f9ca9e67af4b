import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, statusAndBody } from '../../../test/app.ts';
import { ProductList, ProductResponse } from './schema.ts';
import {
  defaultChannelId,
  expectSchema,
  makeCategory,
  makeCollection,
  makeProduct,
  outboxEvents,
  uniq,
} from './products.testing.ts';

let t: TestApp;
let channel: string;
beforeAll(async () => {
  t = await startTestApp();
  channel = await defaultChannelId(t);
});
afterAll(() => t.close());

const create = (body: Record<string, unknown>) => t.admin('POST', '/admin/products', body);

describe('POST /admin/products', () => {
  it('creates a product with options, variants, prices and channels, and emits product.created', async () => {
    const sku = `SKU-${uniq()}`;
    const category = await makeCategory(t);
    const res = await create({
      title: 'Classic Tee',
      description: 'Soft cotton',
      status: 'published',
      metadata: { origin: 'pt' },
      sales_channels: [{ id: channel }],
      categories: [{ id: category.id }],
      options: [{ title: 'Size', values: ['S', 'M'] }],
      variants: [
        {
          title: 'S',
          sku,
          options: { Size: 'S' },
          inventory_quantity: 5,
          prices: [
            { currency_code: 'eur', amount: 1999 },
            { currency_code: 'usd', amount: 2199 },
          ],
        },
        { title: 'M', options: { Size: 'M' }, manage_inventory: false, prices: [] },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const { product } = res.json();
    expect(product).toMatchObject({
      title: 'Classic Tee',
      handle: 'classic-tee',
      status: 'published',
      description: 'Soft cotton',
      subtitle: null,
      is_giftcard: false,
      discountable: true,
      metadata: { origin: 'pt' },
      sales_channels: [{ id: channel, name: 'Default Sales Channel' }],
      categories: [{ id: category.id, name: category.name, is_active: true, parent_category: null }],
    });
    expect(product.id).toMatch(/^prod_/);
    expect(product.options).toHaveLength(1);
    const size = product.options[0];
    expect(size.values.map((v: { value: string }) => v.value)).toEqual(['S', 'M']);
    const [s, m] = product.variants;
    expect(s).toMatchObject({
      title: 'S',
      sku,
      manage_inventory: true,
      allow_backorder: false,
      inventory_quantity: 5,
      variant_rank: 0,
      product_id: product.id,
    });
    expect(s.options).toEqual([
      {
        id: size.values[0].id,
        value: 'S',
        option_id: size.id,
        option: { id: size.id, title: 'Size', is_exclusive: false },
      },
    ]);
    expect(s.prices.map((p: { currency_code: string; amount: number }) => [p.currency_code, p.amount])).toEqual([
      ['eur', 1999],
      ['usd', 2199],
    ]);
    expect(s.prices[0].variant_id).toBe(s.id);
    expect(m).toMatchObject({ manage_inventory: false, inventory_quantity: 0, variant_rank: 1, prices: [] });
    expect(product.created_at).toBe(t.clock.now().toISOString());

    const got = await t.admin('GET', `/admin/products/${product.id}`);
    expect(got.json()).toEqual({ product });
    expectSchema(ProductResponse, got.json());

    const events = await outboxEvents(t, product.id);
    expect(events.map((e) => e.name)).toEqual(['product.created']);
    expect(events[0].payload).toEqual(product);
  });

  it('generates handles from titles, Medusa style', async () => {
    expect((await makeProduct(t, { title: `Große Straße_Tee ${'!'}  -- Ünï` })).handle).toBe('grosse-strasse-tee-ünï');
    expect((await makeProduct(t, { title: '!!!' })).handle).toMatch(/^product-[a-z0-9]{6}$/);
    expect((await makeProduct(t, { title: 'x', handle: 'Given_Handle' })).handle).toBe('Given_Handle');
  });

  it('rejects a duplicate live handle and accepts it again after delete', async () => {
    const handle = `mug-${uniq()}`;
    const first = await makeProduct(t, { handle });
    expect(statusAndBody(await create({ title: 'Mug', handle }))).toEqual({
      status: 400,
      type: 'invalid_data',
      code: 'product_handle_taken',
      message: `Product with handle: ${handle}, already exists.`,
    });
    expect((await t.admin('DELETE', `/admin/products/${first.id}`)).json()).toEqual({
      id: first.id,
      object: 'product',
      deleted: true,
    });
    expect((await makeProduct(t, { handle })).handle).toBe(handle);
  });

  it.each([
    ['missing title', {}, "Field 'title' is required"],
    ['unknown field', { title: 'x', colour: 'red' }, "Unrecognized fields: 'colour'"],
    ['wrong type', { title: 5 }, "'title'"],
    ['bad status', { title: 'x', status: 'live' }, "'status'"],
    [
      'upper-case currency',
      { title: 'x', variants: [{ title: 'v', prices: [{ currency_code: 'USD', amount: 1 }] }] },
      'currency_code',
    ],
    [
      'unknown currency',
      { title: 'x', variants: [{ title: 'v', prices: [{ currency_code: 'xqz', amount: 1 }] }] },
      'xqz is not an ISO 4217 currency',
    ],
    [
      'negative amount',
      { title: 'x', variants: [{ title: 'v', prices: [{ currency_code: 'eur', amount: -1 }] }] },
      'amount',
    ],
    [
      'non-integer amount',
      { title: 'x', variants: [{ title: 'v', prices: [{ currency_code: 'eur', amount: 10.5 }] }] },
      "Expected type: 'integer'",
    ],
    ['negative inventory', { title: 'x', variants: [{ title: 'v', inventory_quantity: -2 }] }, 'inventory_quantity'],
    ['variant without title', { title: 'x', variants: [{ sku: 'a' }] }, "Field 'variants.0.title' is required"],
    [
      'duplicate currency',
      {
        title: 'x',
        variants: [
          {
            title: 'v',
            prices: [
              { currency_code: 'eur', amount: 1 },
              { currency_code: 'eur', amount: 2 },
            ],
          },
        ],
      },
      'more than one price in eur',
    ],
    ['undeclared option', { title: 'x', variants: [{ title: 'v', options: { Size: 'S' } }] }, 'does not declare'],
    [
      'unknown option value',
      { title: 'x', options: [{ title: 'Size', values: ['S'] }], variants: [{ title: 'v', options: { Size: 'XL' } }] },
      'not one of its values',
    ],
    [
      'duplicate option',
      {
        title: 'x',
        options: [
          { title: 'A', values: ['1'] },
          { title: 'A', values: ['2'] },
        ],
      },
      'declared more than once',
    ],
    [
      'unknown sales channel',
      { title: 'x', sales_channels: [{ id: 'phony' }] },
      'Sales channels with IDs phony do not exist',
    ],
    [
      'duplicate sku in request',
      {
        title: 'x',
        variants: [
          { title: 'a', sku: 'DUP-1' },
          { title: 'b', sku: 'DUP-1' },
        ],
      },
      'Product variant with sku: DUP-1, already exists.',
    ],
  ])('400 for %s, and no event is written', async (_name, body, message) => {
    const before = (await outboxEvents(t)).length;
    const res = await create(body);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().type).toBe('invalid_data');
    expect(res.json().message).toContain(message);
    expect((await outboxEvents(t)).length).toBe(before);
  });

  it('rolls back everything when a sku is taken by another product', async () => {
    const sku = `TAKEN-${uniq()}`;
    await makeProduct(t, { variants: [{ title: 'v', sku }] });
    const before = (await outboxEvents(t)).length;
    const handle = `rollback-${uniq()}`;
    expect(statusAndBody(await create({ title: 'x', handle, variants: [{ title: 'v', sku }] }))).toMatchObject({
      status: 400,
      message: `Product variant with sku: ${sku}, already exists.`,
    });
    expect((await outboxEvents(t)).length).toBe(before);
    expect((await t.admin('GET', `/admin/products?handle=${handle}`)).json().count).toBe(0);
  });

  it('rejects malformed JSON with 400', async () => {
    const res = await t.admin('POST', '/admin/products', '{"title":', {
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
  });
});

describe('delete', () => {
  it('soft deletes: gone from the list and lookups, event product.deleted', async () => {
    const p = await makeProduct(t, {
      status: 'published',
      sales_channels: [{ id: channel }],
      variants: [{ title: 'v' }],
    });
    expect((await t.admin('DELETE', `/admin/products/${p.id}`)).statusCode).toBe(200);
    expect(statusAndBody(await t.admin('GET', `/admin/products/${p.id}`))).toEqual({
      status: 404,
      type: 'not_found',
      code: 'product_not_found',
      message: `Product with id: ${p.id} was not found`,
    });
    expect((await t.admin('GET', `/admin/products?id=${p.id}`)).json().count).toBe(0);
    expect((await t.store('GET', `/store/products/${p.id}`)).statusCode).toBe(404);
    expect((await t.admin('DELETE', `/admin/products/${p.id}`)).statusCode).toBe(404);
    const events = await outboxEvents(t, p.id);
    expect(events.map((e) => e.name)).toEqual(['product.created', 'product.deleted']);
    expect(events[1].payload).toEqual({ id: p.id });
  });
});

describe('GET /admin/products', () => {
  it('filters by q over title, handle and description, case-insensitively, with % and _ literal', async () => {
    const tag = uniq();
    const a = await makeProduct(t, { title: `Alpha ${tag} Lamp` });
    const b = await makeProduct(t, { title: 'Other', handle: `handle-${tag}-zz` });
    const c = await makeProduct(t, { title: 'Third', description: `Made of ${tag.toUpperCase()} and 100% wool_blend` });
    const ids = async (qs: string) =>
      (await t.admin('GET', `/admin/products?${qs}`)).json().products.map((p: { id: string }) => p.id);
    expect(await ids(`q=${tag.toUpperCase()}`)).toEqual([a.id, b.id, c.id]);
    expect(await ids(`q=${tag}%20lamp`)).toEqual([a.id]);
    expect(await ids(`q=${encodeURIComponent(`${tag.toUpperCase()} and 100%`)}`)).toEqual([c.id]);
    expect(await ids(`q=${encodeURIComponent(`${tag}%`)}`)).toEqual([]);
    expect(await ids(`q=${encodeURIComponent(`${tag}_`)}`)).toEqual([]);
    expect(await ids(`q=${encodeURIComponent('wool_blend')}&id=${c.id}`)).toEqual([c.id]);
  });

  it('filters by status (single, status[] and repeated), id, handle, collection, category and channel', async () => {
    const col = (await makeCollection(t)).id;
    const cat = (await makeCategory(t)).id;
    const draft = await makeProduct(t, { collection_id: col, categories: [{ id: cat }] });
    const live = await makeProduct(t, { collection_id: col, status: 'published', sales_channels: [{ id: channel }] });
    const rejected = await makeProduct(t, { collection_id: col, status: 'rejected' });
    const ids = async (qs: string) => {
      const res = await t.admin('GET', `/admin/products?collection_id=${col}&${qs}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().products.map((p: { id: string }) => p.id);
    };
    expect(await ids('')).toEqual([draft.id, live.id, rejected.id]);
    expect(await ids('status=draft')).toEqual([draft.id]);
    expect(await ids('status[]=draft&status[]=rejected')).toEqual([draft.id, rejected.id]);
    expect(await ids('status=published&status=rejected')).toEqual([live.id, rejected.id]);
    expect(await ids(`id[0]=${live.id}&id[1]=${rejected.id}`)).toEqual([live.id, rejected.id]);
    expect(await ids(`handle=${draft.handle}`)).toEqual([draft.id]);
    expect(await ids(`category_id[]=${cat}`)).toEqual([draft.id]);
    expect(await ids(`sales_channel_id=${channel}`)).toEqual([live.id]);
    expect((await t.admin('GET', '/admin/products?status=live')).statusCode).toBe(400);
  });

  it('paginates in creation order with count, and clamps the limit', async () => {
    const col = (await makeCollection(t)).id;
    const made = [];
    for (let i = 0; i < 3; i++) made.push(await makeProduct(t, { collection_id: col }));
    const page = async (qs: string) => (await t.admin('GET', `/admin/products?collection_id=${col}&${qs}`)).json();
    const first = await page('limit=2');
    expectSchema(ProductList, first);
    expect(first).toMatchObject({ count: 3, limit: 2, offset: 0 });
    expect(first.products.map((p: { id: string }) => p.id)).toEqual([made[0].id, made[1].id]);
    expect((await page('limit=2&offset=2')).products.map((p: { id: string }) => p.id)).toEqual([made[2].id]);
    expect(await page('limit=0')).toEqual({ products: [], count: 3, limit: 0, offset: 0 });
    expect(await page('offset=10')).toEqual({ products: [], count: 3, limit: 50, offset: 10 });
    expect(await page('limit=5000')).toMatchObject({ count: 3, limit: 1000 });
    expect((await t.admin('GET', '/admin/products?limit=-1')).statusCode).toBe(400);
    expect((await t.admin('GET', '/admin/products?offset=abc')).statusCode).toBe(400);
  });
});

describe('auth', () => {
  it('401 without a token, viewers read but cannot write', async () => {
    expect((await t.inject({ method: 'GET', url: '/admin/products' })).statusCode).toBe(401);
    expect((await t.admin('GET', '/admin/products', undefined, { token: t.viewerToken })).statusCode).toBe(200);
    const res = await t.admin('POST', '/admin/products', { title: 'x' }, { token: t.viewerToken });
    expect(statusAndBody(res)).toMatchObject({ status: 403, type: 'forbidden' });
    const p = await makeProduct(t);
    expect((await t.admin('DELETE', `/admin/products/${p.id}`, undefined, { token: t.viewerToken })).statusCode).toBe(
      403,
    );
  });
});
