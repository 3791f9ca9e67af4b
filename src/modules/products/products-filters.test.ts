import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { medusaSdks, type Sdk } from '../../../test/medusa-sdk.ts';
import { defaultChannelId, makeCategory, makeCollection, makeProduct, uniq } from './products.testing.ts';

let t: TestApp;
let sdk: { storefront: Sdk; dashboard: Sdk };
let channel: string;
beforeAll(async () => {
  t = await startTestApp();
  sdk = await medusaSdks(t);
  channel = await defaultChannelId(t);
});
afterAll(() => t.close());

const published = (body: Record<string, unknown> = {}) =>
  makeProduct(t, { status: 'published', sales_channels: [{ id: channel }], ...body });

describe('store product filters', () => {
  it('collection_id[], category_id[] with descendants, tag_id[], type_id[], is_giftcard, through the SDK', async () => {
    const col = await makeCollection(t);
    const parent = await makeCategory(t);
    const child = await makeCategory(t, { parent_category_id: parent.id });
    const hidden = await makeCategory(t, { parent_category_id: parent.id, is_active: false });
    const type = (await t.admin('POST', '/admin/product-types', { value: `T ${uniq()}` })).json().product_type;
    const tag = (await t.admin('POST', '/admin/product-tags', { value: `g ${uniq()}` })).json().product_tag;

    const inCol = await published({ collection_id: col.id });
    const inParent = await published({ categories: [{ id: parent.id }] });
    const inChild = await published({ categories: [{ id: child.id }], type_id: type.id });
    const inHidden = await published({ categories: [{ id: hidden.id }], tags: [{ id: tag.id }] });
    const gift = await published({ is_giftcard: true, tags: [{ id: tag.id }] });
    await makeProduct(t, { collection_id: col.id, categories: [{ id: parent.id }] }); // a draft

    const ids = async (query: Record<string, unknown>) =>
      (await sdk.storefront.store.product.list({ ...query, limit: 100 })).products.map((p) => p.id);
    expect(await ids({ collection_id: [col.id] })).toEqual([inCol.id]);
    expect(await ids({ category_id: [parent.id] })).toEqual([inParent.id, inChild.id]);
    expect(await ids({ category_id: [child.id] })).toEqual([inChild.id]);
    expect(await ids({ category_id: [hidden.id] })).toEqual([]);
    expect(await ids({ tag_id: [tag.id] })).toEqual([inHidden.id, gift.id]);
    expect(await ids({ type_id: [type.id] })).toEqual([inChild.id]);
    expect(await ids({ tag_id: [tag.id], is_giftcard: true })).toEqual([gift.id]);
    expect(await ids({ tag_id: [tag.id], is_giftcard: false })).toEqual([inHidden.id]);
    const counted = await sdk.storefront.store.product.list({ category_id: [parent.id], limit: 1 });
    expect(counted).toMatchObject({ count: 2, limit: 1 });

    const admin = (await t.admin('GET', `/admin/products?tag_id=${tag.id}&is_giftcard=true`)).json();
    expect(admin.products.map((p: { id: string }) => p.id)).toEqual([gift.id]);
    expect((await t.store('GET', '/store/products?is_giftcard=perhaps')).statusCode).toBe(400);
  });

  it('a filtered list kept in memory follows the category tree, the links and the collection on the next request', async () => {
    const parent = await makeCategory(t);
    const child = await makeCategory(t, { parent_category_id: parent.id });
    const col = await makeCollection(t);
    const tag = (await t.admin('POST', '/admin/product-tags', { value: `g ${uniq()}` })).json().product_tag;
    const a = await published({ categories: [{ id: child.id }] });
    const b = await published({ collection_id: col.id });
    const d = await published({ tags: [{ id: tag.id }] });
    const ids = async (query: string) =>
      (await t.store('GET', `/store/products?limit=100&${query}`)).json().products.map((p: { id: string }) => p.id);
    const ok = async (res: Promise<{ statusCode: number; body: string }>) => expect((await res).statusCode).toBe(200);
    // Each asked twice first, so the second answer comes from the cache.
    for (let i = 0; i < 2; i++) {
      expect(await ids(`category_id[]=${parent.id}`)).toEqual([a.id]);
      expect(await ids(`collection_id[]=${col.id}`)).toEqual([b.id]);
      expect(await ids(`tag_id[]=${tag.id}`)).toEqual([d.id]);
    }

    await ok(t.admin('POST', `/admin/product-categories/${child.id}`, { is_active: false }));
    expect(await ids(`category_id[]=${parent.id}`)).toEqual([]);
    await ok(t.admin('POST', `/admin/product-categories/${parent.id}/products`, { add: [b.id] }));
    expect(await ids(`category_id[]=${parent.id}`)).toEqual([b.id]);
    await ok(t.admin('POST', `/admin/product-categories/${child.id}`, { is_active: true }));
    expect(await ids(`category_id[]=${parent.id}`)).toEqual([a.id, b.id]);
    await ok(t.admin('POST', `/admin/collections/${col.id}/products`, { remove: [b.id] }));
    expect(await ids(`collection_id[]=${col.id}`)).toEqual([]);
    await ok(t.admin('POST', `/admin/products/${d.id}`, { tags: [] }));
    expect(await ids(`tag_id[]=${tag.id}`)).toEqual([]);
  });
});
