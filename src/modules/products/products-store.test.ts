import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, statusAndBody } from '../../../test/app.ts';
import { StoreProductList, StoreProductResponse } from './schema.ts';
import {
  defaultChannelId,
  expectSchema,
  insertChannel,
  insertPublishableKey,
  insertRegion,
  makeProduct,
  uniq,
} from './products.testing.ts';

let t: TestApp;
let channel: string;
beforeAll(async () => {
  t = await startTestApp();
  channel = await defaultChannelId(t);
});
afterAll(() => t.close());

const ids = (body: { products: { id: string }[] }) => body.products.map((p) => p.id);

/** A published product in the default channel, with a unique word in its title for `q`. */
const published = (tag: string, body: Record<string, unknown> = {}) =>
  makeProduct(t, { title: `Store ${tag} ${uniq()}`, status: 'published', sales_channels: [{ id: channel }], ...body });

describe('store visibility', () => {
  it('lists only published, live products of the key’s channels', async () => {
    const tag = uniq();
    const other = await insertChannel(t);
    const visible = await published(tag, { variants: [{ title: 'v', inventory_quantity: 3 }] });
    await published(tag, { status: 'draft' });
    await published(tag, { sales_channels: [{ id: other }] });
    await published(tag, { sales_channels: [] });
    const gone = await published(tag);
    await t.admin('DELETE', `/admin/products/${gone.id}`);

    const res = await t.store('GET', `/store/products?q=${tag}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expectSchema(StoreProductList, body);
    expect(ids(body)).toEqual([visible.id]);
    expect(body).toMatchObject({ count: 1, limit: 50, offset: 0 });
    expect(body.products[0].sales_channels).toBeUndefined();
    expect(body.products[0].categories).toEqual([]);
    expect(body.products[0].variants[0].inventory_quantity).toBe(3);
    expect(body.products[0].variants[0].calculated_price).toBeUndefined();
  });

  it('GET /store/products/{id}: 200 when visible, 404 when draft, deleted, elsewhere or missing', async () => {
    const other = await insertChannel(t);
    const visible = await published(uniq());
    const draft = await published(uniq(), { status: 'draft' });
    const elsewhere = await published(uniq(), { sales_channels: [{ id: other }] });
    const res = await t.store('GET', `/store/products/${visible.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expectSchema(StoreProductResponse, res.json());
    const { sales_channels: _sc, shipping_profile_id: _sp, ...expected } = visible;
    expect(res.json()).toEqual({ product: expected });
    for (const id of [draft.id, elsewhere.id, 'does-not-exist']) {
      expect(statusAndBody(await t.store('GET', `/store/products/${id}`))).toEqual({
        status: 404,
        type: 'not_found',
        code: 'product_not_found',
        message: `Product with id: ${id} was not found`,
      });
    }
    const key = await insertPublishableKey(t, [other]);
    expect((await t.store('GET', `/store/products/${elsewhere.id}`, undefined, { key })).statusCode).toBe(200);
    expect((await t.store('GET', `/store/products/${visible.id}`, undefined, { key })).statusCode).toBe(404);
  });

  it('narrows to sales_channel_id inside the key and refuses one outside it', async () => {
    const tag = uniq();
    const [a, b] = [await insertChannel(t), await insertChannel(t)];
    const key = await insertPublishableKey(t, [a, b]);
    const inA = await published(tag, { sales_channels: [{ id: a }] });
    const inB = await published(tag, { sales_channels: [{ id: b }] });
    const inBoth = await published(tag, { sales_channels: [{ id: a }, { id: b }] });
    const list = async (qs: string) => t.store('GET', `/store/products?q=${tag}${qs}`, undefined, { key });
    expect(ids((await list('')).json())).toEqual([inA.id, inB.id, inBoth.id]);
    expect(ids((await list(`&sales_channel_id=${a}`)).json())).toEqual([inA.id, inBoth.id]);
    expect(ids((await list(`&sales_channel_id[]=${b}`)).json())).toEqual([inB.id, inBoth.id]);
    expect(statusAndBody(await list(`&sales_channel_id=${channel}`))).toEqual({
      status: 400,
      type: 'invalid_data',
      code: 'sales_channel_not_in_key',
      message: 'Requested sales channel is not part of the publishable key',
    });
    const byId = await t.store('GET', `/store/products/${inA.id}?sales_channel_id=${b}`, undefined, { key });
    expect(byId.statusCode).toBe(404);
  });

  it('400 for a key without channels and for a missing key', async () => {
    const key = await insertPublishableKey(t, []);
    const expected = {
      status: 400,
      type: 'not_allowed',
      code: 'publishable_key_without_channel',
      message: 'Publishable key needs to have a sales channel configured',
    };
    expect(statusAndBody(await t.store('GET', '/store/products', undefined, { key }))).toEqual(expected);
    expect(statusAndBody(await t.store('GET', '/store/products/prod_x', undefined, { key }))).toEqual(expected);
    const none = await t.store('GET', '/store/products', undefined, { key: null });
    expect(statusAndBody(none)).toMatchObject({ status: 400, type: 'not_allowed' });
    expect(none.json().message).toContain('x-publishable-api-key');
  });
});

describe('calculated_price', () => {
  it('adds the region currency price to each variant, null without one', async () => {
    const tag = uniq();
    const region = await insertRegion(t, 'usd');
    const p = await published(tag, {
      variants: [
        {
          title: 'priced',
          prices: [
            { currency_code: 'usd', amount: 3000 },
            { currency_code: 'eur', amount: 2800 },
          ],
        },
        { title: 'eur only', prices: [{ currency_code: 'eur', amount: 10 }] },
      ],
    });
    const usd = p.variants[0].prices.find((x: { currency_code: string }) => x.currency_code === 'usd');
    const ref = { id: usd.id, price_list_id: null, price_list_type: null, min_quantity: null, max_quantity: null };
    const expected = {
      id: usd.id,
      calculated_amount: 3000,
      original_amount: 3000,
      calculated_amount_with_tax: 3000,
      calculated_amount_without_tax: 3000,
      original_amount_with_tax: 3000,
      original_amount_without_tax: 3000,
      currency_code: 'usd',
      is_calculated_price_price_list: false,
      is_calculated_price_tax_inclusive: false,
      is_original_price_price_list: false,
      is_original_price_tax_inclusive: false,
      raw_calculated_amount: { value: '3000', precision: 20 },
      raw_original_amount: { value: '3000', precision: 20 },
      calculated_price: ref,
      original_price: ref,
    };
    const list = await t.store(
      'GET',
      `/store/products?q=${tag}&region_id=${region}&fields=*variants.calculated_price,%2Bvariants.inventory_quantity`,
    );
    expect(list.statusCode, list.body).toBe(200);
    expectSchema(StoreProductList, list.json());
    const [priced, eurOnly] = list.json().products[0].variants;
    expect(priced.calculated_price).toEqual(expected);
    expect(eurOnly.calculated_price).toBeNull();

    const one = await t.store('GET', `/store/products/${p.id}?region_id=${region}`);
    expect(one.json().product.variants[0].calculated_price).toEqual(expected);

    const inclusive = await insertRegion(t, 'eur', { taxInclusive: true });
    const eur = (await t.store('GET', `/store/products/${p.id}?region_id=${inclusive}`)).json().product.variants[1]
      .calculated_price;
    expect(eur).toMatchObject({
      calculated_amount: 10,
      currency_code: 'eur',
      is_calculated_price_tax_inclusive: true,
      is_original_price_tax_inclusive: true,
    });
  });

  it('400 for an unknown region', async () => {
    const p = await published(uniq());
    const message = 'Region with id reg_nope not found when populating the pricing context';
    expect(statusAndBody(await t.store('GET', '/store/products?region_id=reg_nope'))).toEqual({
      status: 400,
      type: 'invalid_data',
      code: 'pricing_region_not_found',
      message,
    });
    expect(statusAndBody(await t.store('GET', `/store/products/${p.id}?region_id=reg_nope`))).toEqual({
      status: 400,
      type: 'invalid_data',
      code: 'pricing_region_not_found',
      message,
    });
  });
});

describe('store list filters and pages', () => {
  it('filters by id and handle, ignores fields/order/country_code/cart_id', async () => {
    const tag = uniq();
    const [a, b] = [await published(tag), await published(tag)];
    const list = async (qs: string) => (await t.store('GET', `/store/products?${qs}`)).json();
    expect(ids(await list(`id[]=${b.id}`))).toEqual([b.id]);
    expect(ids(await list(`id=${a.id}&id=${b.id}`))).toEqual([a.id, b.id]);
    expect(
      ids(await list(`handle=${a.handle}&order=-created_at&country_code=us&cart_id=cart_1&fields=id,title`)),
    ).toEqual([a.id]);
  });

  it('paginates with count; limit 0 and an offset past the end still count', async () => {
    const tag = uniq();
    const made = [await published(tag), await published(tag), await published(tag)];
    const list = async (qs: string) => (await t.store('GET', `/store/products?q=${tag}&${qs}`)).json();
    expect(ids(await list('limit=2&offset=1'))).toEqual([made[1].id, made[2].id]);
    expect(await list('limit=0')).toEqual({ products: [], count: 3, limit: 0, offset: 0 });
    expect(await list('offset=3')).toEqual({ products: [], count: 3, limit: 50, offset: 3 });
    expect((await list('limit=1001')).limit).toBe(1000);
    expect((await t.store('GET', '/store/products?limit=x')).statusCode).toBe(400);
  });
});

describe('maintained store count (one channel, no filters)', () => {
  it('follows publishing, deleting and links added or removed through either module', async () => {
    const sc = await insertChannel(t);
    const key = await insertPublishableKey(t, [sc]);
    const list = async (qs = 'limit=1000') =>
      (await t.store('GET', `/store/products?${qs}`, undefined, { key })).json();
    const expectCount = async (n: number) => {
      const body = await list();
      expect(body.products).toHaveLength(n);
      expect(body.count).toBe(n);
    };
    await expectCount(0);
    const a = await published(uniq(), { sales_channels: [{ id: sc }] });
    const b = await published(uniq(), { sales_channels: [{ id: sc }], status: 'draft' });
    await expectCount(1);
    await t.admin('POST', `/admin/products/${b.id}`, { status: 'published' });
    await expectCount(2);
    await t.admin('POST', `/admin/products/${a.id}`, { status: 'proposed' });
    await expectCount(1);
    await t.admin('POST', `/admin/products/${a.id}`, {
      status: 'published',
      sales_channels: [{ id: sc }, { id: channel }],
    });
    await expectCount(2);
    // Links written by the sales-channels module (the store documents' hook runs there too).
    const links = async (body: { add?: string[]; remove?: string[] }) =>
      expect((await t.admin('POST', `/admin/sales-channels/${sc}/products`, body)).statusCode).toBe(200);
    const c = await published(uniq());
    await links({ add: [c.id] });
    await expectCount(3);
    await links({ remove: [b.id] });
    await expectCount(2);
    await t.admin('DELETE', `/admin/products/${c.id}`);
    await expectCount(1);
    const [d, e] = [await published(uniq()), await published(uniq())];
    await links({ add: [d.id, e.id] });
    await expectCount(3);
    for (const p of [d, e, a]) await t.admin('POST', `/admin/products/${p.id}`, { status: 'draft' });
    await expectCount(0);
    await t.admin('POST', `/admin/products/${a.id}`, { status: 'published' });
    expect(await list('limit=0')).toEqual({ products: [], count: 1, limit: 0, offset: 0 });
    expect(await list('offset=5')).toEqual({ products: [], count: 1, limit: 50, offset: 5 });
    expect((await list('limit=1&offset=0')).products.map((p: { id: string }) => p.id)).toEqual([a.id]);
  });
});
