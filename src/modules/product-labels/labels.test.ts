import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { medusaSdks, type Sdk } from '../../../test/medusa-sdk.ts';
import { makeProduct, outboxEvents, uniq } from '../products/products.testing.ts';

let t: TestApp;
let sdk: { storefront: Sdk; dashboard: Sdk };
beforeAll(async () => {
  t = await startTestApp();
  sdk = await medusaSdks(t);
});
afterAll(() => t.close());

describe('product types and tags', () => {
  it('CRUD through the SDK; products show them; renaming emits product.updated; deleting detaches', async () => {
    const { product_type: type } = await sdk.dashboard.admin.productType.create({ value: `Shirts ${uniq()}` });
    const { product_tag: tag } = await sdk.dashboard.admin.productTag.create({ value: `eco-${uniq()}` });
    expect(type.id).toMatch(/^ptyp_/);
    expect(tag.id).toMatch(/^ptag_/);
    const p = await makeProduct(t, { type_id: type.id, tags: [{ id: tag.id }] });
    expect(p.type).toMatchObject({ id: type.id, value: type.value });
    expect(p.tags).toMatchObject([{ id: tag.id, value: tag.value }]);

    await sdk.dashboard.admin.productTag.update(tag.id, { value: `green-${uniq()}` });
    expect((await outboxEvents(t, p.id)).map((e) => e.name)).toEqual(['product.created', 'product.updated']);
    const list = await sdk.dashboard.admin.productTag.list({ value: [tag.value] });
    expect(list.count).toBe(0);
    expect(
      (await sdk.storefront.client.fetch<{ count: number }>('/store/product-types', { query: { q: type.value } }))
        .count,
    ).toBe(1);

    await sdk.dashboard.admin.productType.delete(type.id);
    expect(await sdk.dashboard.admin.productTag.delete(tag.id)).toEqual({
      id: tag.id,
      object: 'product_tag',
      deleted: true,
    });
    const after = (await t.admin('GET', `/admin/products/${p.id}`)).json().product;
    expect(after).toMatchObject({ type_id: null, type: null, tags: [] });
  });

  it('400 for a duplicate value, unknown references and bad bodies; 404 for unknown ids', async () => {
    const value = `dup-${uniq()}`;
    await sdk.dashboard.admin.productTag.create({ value });
    const dup = await t.admin('POST', '/admin/product-tags', { value });
    expect(dup.json()).toEqual({
      type: 'invalid_data',
      code: 'product_label_taken',
      message: `Product tag with value: ${value}, already exists.`,
    });
    expect((await t.admin('POST', '/admin/product-types', { value: '' })).statusCode).toBe(400);
    expect((await t.admin('POST', '/admin/products', { title: 'x', type_id: 'ptyp_nope' })).statusCode).toBe(400);
    expect((await t.admin('POST', '/admin/products', { title: 'x', tags: [{ id: 'ptag_nope' }] })).statusCode).toBe(
      400,
    );
    expect((await t.admin('GET', '/admin/product-types/ptyp_nope')).statusCode).toBe(404);
    expect((await t.admin('DELETE', '/admin/product-tags/ptag_nope')).statusCode).toBe(404);
    expect((await t.store('GET', '/store/product-tags/ptag_nope')).statusCode).toBe(404);
  });
});
