import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, statusAndBody } from '../../../test/app.ts';
import { defaultChannelId, makeProduct, outboxEvents, uniq } from './products.testing.ts';

/** Admin product updates (split from products-admin.test.ts): variants, options, prices, links. */
let t: TestApp;
let channel: string;
beforeAll(async () => {
  t = await startTestApp();
  channel = await defaultChannelId(t);
});
afterAll(() => t.close());

describe('update', () => {
  it('adds, changes and removes variants; replaces prices and channels; emits product.updated', async () => {
    const p = await makeProduct(t, {
      sales_channels: [{ id: channel }],
      options: [{ title: 'Color', values: ['red', 'blue'] }],
      variants: [
        {
          title: 'Red',
          sku: `R-${uniq()}`,
          options: { Color: 'red' },
          prices: [
            { currency_code: 'eur', amount: 100 },
            { currency_code: 'usd', amount: 120 },
          ],
        },
        { title: 'Blue', options: { Color: 'blue' }, prices: [{ currency_code: 'eur', amount: 100 }] },
      ],
    });
    const [red, blue] = p.variants;
    t.clock.advance(60_000);
    const res = await t.admin('POST', `/admin/products/${p.id}`, {
      title: 'Renamed',
      sales_channels: [],
      variants: [
        {
          id: red.id,
          prices: [
            { currency_code: 'eur', amount: 150 },
            { currency_code: 'gbp', amount: 90 },
          ],
          inventory_quantity: 7,
        },
        { title: 'Green', sku: red.sku.replace('R-', 'G-'), prices: [{ currency_code: 'eur', amount: 200 }] },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const { product } = res.json();
    expect(product).toMatchObject({ title: 'Renamed', handle: p.handle, sales_channels: [] });
    expect(product.updated_at).toBe(t.clock.now().toISOString());
    expect(product.variants.map((v: { title: string }) => v.title)).toEqual(['Red', 'Green']);
    const updatedRed = product.variants[0];
    expect(updatedRed).toMatchObject({ id: red.id, sku: red.sku, inventory_quantity: 7 });
    expect(
      updatedRed.prices.map((x: { currency_code: string; amount: number }) => [x.currency_code, x.amount]),
    ).toEqual([
      ['eur', 150],
      ['gbp', 90],
    ]);
    expect(updatedRed.prices[0].id).toBe(red.prices[0].id); // a currency that stays keeps its price
    expect(product.variants.some((v: { id: string }) => v.id === blue.id)).toBe(false);
    expect((await t.admin('GET', `/admin/products/${p.id}`)).json().product).toEqual(product);
    expect((await outboxEvents(t, p.id)).map((e) => e.name)).toEqual(['product.created', 'product.updated']);
  });

  it('serves PATCH like POST and lets two variants swap skus', async () => {
    const [a, b] = [`A-${uniq()}`, `B-${uniq()}`];
    const p = await makeProduct(t, {
      variants: [
        { title: 'a', sku: a },
        { title: 'b', sku: b },
      ],
    });
    const res = await t.admin('PATCH', `/admin/products/${p.id}`, {
      status: 'proposed',
      variants: [
        { id: p.variants[0].id, sku: b },
        { id: p.variants[1].id, sku: a },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().product.status).toBe('proposed');
    expect(res.json().product.variants.map((v: { sku: string }) => v.sku)).toEqual([b, a]);
  });

  it('replaces options, keeping ids by title, and checks variants against them', async () => {
    const p = await makeProduct(t, {
      options: [
        { title: 'Size', values: ['S', 'M'] },
        { title: 'Fit', values: ['slim'] },
      ],
      variants: [{ title: 'S', options: { Size: 'S' } }],
    });
    const size = p.options[0];
    const bad = await t.admin('POST', `/admin/products/${p.id}`, { options: [{ title: 'Size', values: ['M', 'L'] }] });
    expect(statusAndBody(bad)).toMatchObject({ status: 400, type: 'invalid_data' });
    expect(bad.json().message).toContain('"S"');
    const res = await t.admin('POST', `/admin/products/${p.id}`, {
      options: [
        { title: 'Color', values: ['red'] },
        { title: 'Size', values: ['M', 'L'] },
      ],
      variants: [{ id: p.variants[0].id, title: 'L red', options: { Size: 'L', Color: 'red' } }],
    });
    expect(res.statusCode, res.body).toBe(200);
    const { product } = res.json();
    expect(product.options.map((o: { title: string }) => o.title)).toEqual(['Color', 'Size']);
    expect(product.options[1]).toMatchObject({
      id: size.id,
      title: 'Size',
      is_exclusive: false,
      values: [
        { value: 'M', option_id: size.id },
        { value: 'L', option_id: size.id },
      ],
    });
    // A value keeps its id while it stays (derived from option and value).
    expect(product.options[1].values[0].id).toBe(size.values.find((v: { value: string }) => v.value === 'M').id);
    expect(
      product.variants[0].options.map((o: { value: string; option: { title: string } }) => [o.option.title, o.value]),
    ).toEqual([
      ['Color', 'red'],
      ['Size', 'L'],
    ]);
  });

  it('frees the sku of a removed variant for reuse', async () => {
    const sku = `FREE-${uniq()}`;
    const p = await makeProduct(t, { variants: [{ title: 'old', sku }] });
    await t.admin('POST', `/admin/products/${p.id}`, { variants: [] });
    expect((await makeProduct(t, { variants: [{ title: 'new', sku }] })).variants[0].sku).toBe(sku);
  });

  it('rejects status null, unknown variant ids, a taken handle and unknown products', async () => {
    const p = await makeProduct(t);
    const other = await makeProduct(t);
    const before = (await outboxEvents(t, p.id)).length;
    expect(statusAndBody(await t.admin('POST', `/admin/products/${p.id}`, { status: null }))).toMatchObject({
      status: 400,
      type: 'invalid_data',
    });
    expect(
      statusAndBody(await t.admin('POST', `/admin/products/${p.id}`, { variants: [{ id: 'variant_nope' }] })),
    ).toMatchObject({ status: 400, type: 'invalid_data' });
    expect(statusAndBody(await t.admin('POST', `/admin/products/${p.id}`, { handle: other.handle }))).toMatchObject({
      status: 400,
      message: `Product with handle: ${other.handle}, already exists.`,
    });
    expect(statusAndBody(await t.admin('POST', `/admin/products/${p.id}`, { nope: 1 }))).toMatchObject({
      status: 400,
      message: "Invalid request: Unrecognized fields: 'nope'",
    });
    expect((await outboxEvents(t, p.id)).length).toBe(before);
    expect(statusAndBody(await t.admin('POST', '/admin/products/prod_missing', { title: 'x' }))).toEqual({
      status: 404,
      type: 'not_found',
      code: 'product_not_found',
      message: 'Product with id: prod_missing was not found',
    });
  });
});
