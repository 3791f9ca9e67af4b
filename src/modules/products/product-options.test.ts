import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, errorOf } from '../../../test/app.ts';
import { medusaSdks, type Sdk } from '../../../test/medusa-sdk.ts';
import { OptionList, OptionResponse } from './schema.ts';
import { expectSchema, makeProduct, outboxEvents } from './products.testing.ts';

/** Medusa 2.21's option routes over the products' own options, through @medusajs/js-sdk and over HTTP. */

let t: TestApp;
let sdk: Sdk;
beforeAll(async () => {
  t = await startTestApp();
  sdk = (await medusaSdks(t)).dashboard;
});
afterAll(() => t.close());

interface Shirt {
  id: string;
  options: { id: string; title: string; values: { id: string; value: string }[] }[];
  variants: { id: string; title: string; options: { value: string; option: { title: string } }[] }[];
}

const shirt = () =>
  makeProduct(t, {
    options: [
      { title: 'Size', values: ['S', 'M'] },
      { title: 'Color', values: ['Red', 'Blue'] },
    ],
    variants: [
      { title: 'S red', options: { Size: 'S', Color: 'Red' } },
      { title: 'M blue', options: { Size: 'M', Color: 'Blue' } },
    ],
  }) as Promise<Shirt>;

const choices = (product: Shirt) =>
  Object.fromEntries(
    product.variants.map((v) => [v.title, Object.fromEntries(v.options.map((o) => [o.option.title, o.value]))]),
  );
const read = async (id: string) => (await t.admin('GET', `/admin/products/${id}`)).json().product as Shirt;

describe('product options', () => {
  it('lists a product’s options and all options, and reads one with its values', async () => {
    const product = await shirt();
    const own = await sdk.admin.product.listOptions(product.id);
    expectSchema(OptionList, own);
    expect(own.product_options.map((o) => [o.title, o.values!.map((v) => v.value)])).toEqual([
      ['Size', ['S', 'M']],
      ['Color', ['Red', 'Blue']],
    ]);
    const size = product.options[0];
    const { product_option } = await sdk.admin.productOption.retrieve(size.id);
    expectSchema(OptionResponse, { product_option });
    // The same value ids the product JSON shows.
    expect(product_option).toMatchObject({ id: size.id, title: 'Size', product_id: product.id, values: size.values });
    const byTitle = await sdk.admin.productOption.list({ title: 'Color', q: 'col' } as never);
    expect(byTitle.product_options.map((o) => o.id)).toContain(product.options[1].id);
    expect(byTitle.product_options.every((o) => o.title === 'Color')).toBe(true);
    const missing = await t.admin('GET', '/admin/product-options/opt_missing');
    expect(errorOf(missing)).toEqual({ status: 404, type: 'not_found', code: 'product_option_not_found' });
  });

  it('renames an option and its values, and the variants follow; product.updated carries it', async () => {
    const product = await shirt();
    const [size] = product.options;
    const { product_option } = await sdk.admin.productOption.update(size.id, {
      title: 'Größe',
      values: ['S', 'M', 'L'],
      ranks: { L: 0 },
    });
    expect(product_option.values!.map((v) => v.value)).toEqual(['L', 'S', 'M']);
    const m = product_option.values!.find((v) => v.value === 'M')!;
    const { product_option_value } = await sdk.admin.productOption.updateValue(size.id, m.id, { value: 'Medium' });
    expect(product_option_value).toMatchObject({ value: 'Medium', option_id: size.id });
    expect(product_option_value.id).not.toBe(m.id);
    expect(choices(await read(product.id))).toEqual({
      'S red': { Größe: 'S', Color: 'Red' },
      'M blue': { Größe: 'Medium', Color: 'Blue' },
    });
    const last = (await outboxEvents(t, product.id)).at(-1)!;
    expect(last.name).toBe('product.updated');
    expect((last.payload.options as { title: string }[]).map((o) => o.title)).toEqual(['Größe', 'Color']);
  });

  it('refuses to drop a value a variant uses, and a title another option has', async () => {
    const product = await shirt();
    const before = await read(product.id);
    const [size, color] = product.options;
    const inUse = await t.admin('POST', `/admin/product-options/${size.id}`, { values: ['M'] });
    expect(errorOf(inUse)).toEqual({ status: 400, type: 'not_allowed', code: 'option_value_in_use' });
    const s = size.values.find((v) => v.value === 'S')!;
    const del = await t.admin('DELETE', `/admin/product-options/${size.id}/values/${s.id}`);
    expect(errorOf(del)).toEqual({ status: 400, type: 'not_allowed', code: 'option_value_in_use' });
    const clash = await t.admin('POST', `/admin/product-options/${color.id}`, { title: 'Size' });
    expect(errorOf(clash)).toEqual({ status: 400, type: 'invalid_data', code: 'option_repeated' });
    expect(await read(product.id)).toEqual(before);
  });

  it('lists, reads and deletes values; deleting an option takes it off the variants', async () => {
    const product = await shirt();
    const [size, color] = product.options;
    const values = await sdk.admin.productOption.listValues(size.id);
    expect(values).toMatchObject({ count: 2, offset: 0, limit: 50 });
    expect(values.product_option_values.map((v) => v.value)).toEqual(['S', 'M']);
    const { product_option: withL } = await sdk.admin.productOption.update(size.id, { values: ['S', 'M', 'L'] });
    const l = withL.values!.find((v) => v.value === 'L')!;
    expect((await sdk.admin.productOption.retrieveValue(size.id, l.id)).product_option_value).toEqual(l);
    const deleted = await sdk.admin.productOption.deleteValue(size.id, l.id);
    expect(deleted).toMatchObject({ id: l.id, object: 'product_option_value', deleted: true });
    expect(deleted.parent!.values!.map((v) => v.value)).toEqual(['S', 'M']);

    const gone = await sdk.admin.productOption.delete(color.id);
    expect(gone).toMatchObject({ id: color.id, object: 'product_option', deleted: true });
    expect(gone.parent!.options!.map((o) => o.title)).toEqual(['Size']);
    expect(choices(await read(product.id))).toEqual({ 'S red': { Size: 'S' }, 'M blue': { Size: 'M' } });
    // The product still saves: no variant points at the removed option.
    const saved = await t.admin('POST', `/admin/products/${product.id}`, { title: 'Still fine' });
    expect(saved.statusCode, saved.body).toBe(200);
  });

  it('creates an option for the product named by product_id; without one it is a 400', async () => {
    const product = await shirt();
    const { product_option } = await sdk.admin.productOption.create({
      title: 'Fit',
      values: ['Slim', 'Regular'],
      product_id: product.id,
    } as never);
    expect(product_option).toMatchObject({ title: 'Fit', product_id: product.id, rank: 2 });
    const without = await t.admin('POST', '/admin/product-options', { title: 'Fit', values: ['Slim'] });
    expect(errorOf(without)).toEqual({
      status: 400,
      type: 'invalid_data',
      code: 'product_option_product_required',
    });
  });
});

describe('POST /admin/products/{id}/options/batch (linkOptions)', () => {
  it('adds new and copied options, changes values and removes options in one call', async () => {
    const product = await shirt();
    const donor = (await makeProduct(t, {
      options: [{ title: 'Fabric', values: ['Cotton', 'Linen', 'Wool'] }],
    })) as Shirt;
    const fabric = donor.options[0];
    const [size, color] = product.options;
    const { product: after } = await sdk.admin.product.linkOptions(product.id, {
      add: [
        { title: 'Fit', values: ['Slim'] },
        { id: fabric.id, value_ids: fabric.values.filter((v) => v.value !== 'Wool').map((v) => v.id) },
      ],
      update: [{ product_option_id: size.id, add: ['L', { value: 'XL' }] }],
      remove: [color.id],
    });
    expect(after.options!.map((o) => [o.title, o.values!.map((v) => v.value)])).toEqual([
      ['Size', ['S', 'M', 'L', 'XL']],
      ['Fit', ['Slim']],
      ['Fabric', ['Cotton', 'Linen']],
    ]);
    // The donor keeps its own option.
    expect((await read(donor.id)).options.map((o) => o.values.length)).toEqual([3]);
    const unknown = await t.admin('POST', `/admin/products/${product.id}/options/batch`, { remove: [fabric.id] });
    expect(errorOf(unknown)).toEqual({ status: 404, type: 'not_found', code: 'product_option_not_found' });
  });
});
