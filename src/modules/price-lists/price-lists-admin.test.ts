import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, statusAndBody } from '../../../test/app.ts';
import { medusaSdks, type Sdk } from '../../../test/medusa-sdk.ts';
import { customerEvents } from '../customers/customers.testing.ts';
import { defaultChannelId, expectSchema } from '../products/products.testing.ts';
import { pricedProduct } from './price-lists.testing.ts';
import { PriceListEnvelope, PriceListList } from './schema.ts';

let t: TestApp;
let sdk: Sdk;
let channel: string;
beforeAll(async () => {
  t = await startTestApp();
  sdk = (await medusaSdks(t)).dashboard;
  channel = await defaultChannelId(t);
});
afterAll(() => t.close());

describe('admin price lists', () => {
  it('creates with rules and prices, lists, updates, batches prices, removes products and deletes (SDK)', async () => {
    const { product, variant } = await pricedProduct(t, channel, { usd: 1000 });
    const { variant: other } = await pricedProduct(t, channel, { usd: 500 });
    const { price_list: created } = await sdk.admin.priceList.create({
      title: 'Black Friday',
      description: 'Sale for VIPs',
      type: 'sale' as never,
      rules: { 'customer.groups.id': ['cusgroup_vip'] },
      prices: [{ variant_id: variant.id, currency_code: 'USD', amount: 800, min_quantity: 2, max_quantity: 5 }],
    });
    expectSchema(PriceListEnvelope, { price_list: created });
    expect(created).toMatchObject({
      title: 'Black Friday',
      status: 'draft',
      type: 'sale',
      starts_at: null,
      ends_at: null,
      rules: { 'customer.groups.id': ['cusgroup_vip'] },
      prices: [
        { variant_id: variant.id, currency_code: 'usd', amount: 800, min_quantity: 2, max_quantity: 5, rules: {} },
      ],
    });
    expect(created.id).toMatch(/^plist_/);

    const list = await sdk.admin.priceList.list({ q: 'Black', limit: 5 });
    expectSchema(PriceListList, list);
    expect(list.price_lists.map((l) => l.id)).toContain(created.id);

    const { price_list: updated } = await sdk.admin.priceList.update(created.id, {
      status: 'active' as never,
      type: 'override' as never,
      starts_at: '2026-01-02T00:00:00.000Z',
    });
    expect(updated).toMatchObject({ status: 'active', type: 'override', starts_at: '2026-01-02T00:00:00.000Z' });

    const batch = await sdk.admin.priceList.batchPrices(created.id, {
      create: [{ variant_id: other.id, currency_code: 'usd', amount: 400, rules: { region_id: 'reg_x' } }],
      update: [{ id: created.prices[0].id, variant_id: variant.id, amount: 750 }],
      delete: [],
    });
    expect(batch.created).toMatchObject([{ variant_id: other.id, amount: 400, rules: { region_id: 'reg_x' } }]);
    expect(batch.updated).toMatchObject([{ id: created.prices[0].id, amount: 750, min_quantity: 2 }]);
    expect(batch.deleted).toEqual({ ids: [], object: 'price', deleted: true });

    const prices = await sdk.admin.priceList.prices(created.id, {});
    expect((prices as unknown as { prices: { id: string }[] }).prices).toHaveLength(2);

    const removed = await sdk.admin.priceList.linkProducts(created.id, { remove: [product.id] });
    expect(removed.price_list.prices.map((p) => p.variant_id)).toEqual([other.id]);

    const del = await sdk.admin.priceList.batchPrices(created.id, { delete: [batch.created[0].id] });
    expect(del.deleted.ids).toEqual([batch.created[0].id]);
    expect((await sdk.admin.priceList.retrieve(created.id)).price_list.prices).toEqual([]);

    expect(await sdk.admin.priceList.delete(created.id)).toEqual({
      id: created.id,
      object: 'price_list',
      deleted: true,
    });
    expect(statusAndBody(await t.admin('GET', `/admin/price-lists/${created.id}`))).toMatchObject({ status: 404 });
    const names = (await customerEvents(t, created.id)).map((e) => e.name);
    expect(names[0]).toBe('price_list.created');
    expect(names.at(-1)).toBe('price_list.deleted');
    expect(names.filter((n) => n === 'price_list.updated').length).toBeGreaterThanOrEqual(3);
  });

  it('answers 4xx with nothing written for bad input', async () => {
    const { variant } = await pricedProduct(t, channel, { usd: 1000 });
    const base = { title: 'Bad', description: 'x' };
    const unknownVariant = await t.admin('POST', '/admin/price-lists', {
      ...base,
      prices: [{ variant_id: 'variant_nope', currency_code: 'usd', amount: 1 }],
    });
    expect(statusAndBody(unknownVariant)).toMatchObject({
      status: 400,
      type: 'invalid_data',
      code: 'price_list_variants_missing',
      message: 'No price set exist for variants: variant_nope',
    });
    const range = await t.admin('POST', '/admin/price-lists', {
      ...base,
      prices: [{ variant_id: variant.id, currency_code: 'usd', amount: 1, min_quantity: 5, max_quantity: 2 }],
    });
    expect(range.statusCode).toBe(400);
    expect((await t.admin('POST', '/admin/price-lists', { ...base, type: 'clearance' })).statusCode).toBe(400);
    expect((await t.admin('POST', '/admin/price-lists', { title: 'no description' })).statusCode).toBe(400);
    expect((await t.admin('POST', '/admin/price-lists', { ...base, color: 'red' })).statusCode).toBe(400);
    const window = await t.admin('POST', '/admin/price-lists', {
      ...base,
      starts_at: '2026-02-01T00:00:00Z',
      ends_at: '2026-01-01T00:00:00Z',
    });
    expect(window.statusCode).toBe(400);
    expect((await t.admin('GET', '/admin/price-lists?q=Bad')).json().count).toBe(0);

    const { id } = (await t.admin('POST', '/admin/price-lists', base)).json().price_list;
    const missing = await t.admin('POST', `/admin/price-lists/${id}/prices/batch`, {
      create: [{ variant_id: variant.id, currency_code: 'usd', amount: 5 }],
      delete: ['price_nope'],
    });
    expect(statusAndBody(missing)).toMatchObject({
      status: 404,
      type: 'not_found',
      code: 'price_list_prices_not_found',
    });
    expect((await t.admin('GET', `/admin/price-lists/${id}`)).json().price_list.prices).toEqual([]);
    expect((await t.admin('POST', `/admin/price-lists/${id}/products`, {})).statusCode).toBe(400);
    expect((await t.admin('POST', '/admin/price-lists/plist_nope', { title: 'x' })).statusCode).toBe(404);
  });
});
