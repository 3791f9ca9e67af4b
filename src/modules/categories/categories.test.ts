import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, statusAndBody } from '../../../test/app.ts';
import { medusaSdks, type Sdk } from '../../../test/medusa-sdk.ts';
import { defaultChannelId, expectSchema, makeCategory, makeProduct, uniq } from '../products/products.testing.ts';
import { AdminCategoryList, StoreCategoryEnvelope, StoreCategoryList } from './schema.ts';

let t: TestApp;
let sdk: { storefront: Sdk; dashboard: Sdk };
let channel: string;
beforeAll(async () => {
  t = await startTestApp();
  sdk = await medusaSdks(t);
  channel = await defaultChannelId(t);
});
afterAll(() => t.close());

const names = (list: { name: string }[]) => list.map((c) => c.name);

/** A root with three children (the middle one inactive, the last internal) and a grandchild. */
async function tree() {
  const tag = uniq();
  const root = await makeCategory(t, { name: `Root ${tag}` });
  const a = await makeCategory(t, { name: `A ${tag}`, parent_category_id: root.id });
  const b = await makeCategory(t, { name: `B ${tag}`, parent_category_id: root.id, is_active: false });
  const c = await makeCategory(t, { name: `C ${tag}`, parent_category_id: root.id, is_internal: true });
  const a1 = await makeCategory(t, { name: `A1 ${tag}`, parent_category_id: a.id });
  return { tag, root, a, b, c, a1 };
}

describe('admin product categories', () => {
  it('creates through the SDK with dense ranks per parent, and inserts at a given rank', async () => {
    const { root, a, b, c, a1 } = await tree();
    expect([a.rank, b.rank, c.rank, a1.rank]).toEqual([0, 1, 2, 0]);
    const { product_category: first } = await sdk.dashboard.admin.productCategory.create({
      name: 'First',
      parent_category_id: root.id,
      rank: 0,
      is_active: true,
    });
    expect(first).toMatchObject({ rank: 0, is_active: true, is_internal: false, parent_category_id: root.id });
    expect(first.parent_category).toMatchObject({ id: root.id });
    const { product_category: r } = await sdk.dashboard.admin.productCategory.retrieve(root.id);
    expect(r.category_children.map((x) => [x.id, x.rank])).toEqual([
      [first.id, 0],
      [a.id, 1],
      [b.id, 2],
      [c.id, 3],
    ]);
    const list = await sdk.dashboard.admin.productCategory.list({ parent_category_id: root.id, limit: 2 });
    expectSchema(AdminCategoryList, list);
    expect(list).toMatchObject({ count: 4, limit: 2, offset: 0 });
    expect((await sdk.dashboard.admin.productCategory.list({ q: `B ${uniq()}` })).count).toBe(0);
    expect((await sdk.dashboard.admin.productCategory.list({ handle: [b.handle], is_active: false })).count).toBe(1);
  });

  it('moves under another parent or rank keeping ranks dense; refuses a cycle; deletes leaves only', async () => {
    const { root, a, b, c, a1 } = await tree();
    await sdk.dashboard.admin.productCategory.update(c.id, { rank: 0 });
    let kids = (await sdk.dashboard.admin.productCategory.retrieve(root.id)).product_category.category_children;
    expect(kids.map((x) => [x.id, x.rank])).toEqual([
      [c.id, 0],
      [a.id, 1],
      [b.id, 2],
    ]);
    await sdk.dashboard.admin.productCategory.update(b.id, { parent_category_id: a.id, rank: 0 });
    kids = (await sdk.dashboard.admin.productCategory.retrieve(a.id)).product_category.category_children;
    expect(kids.map((x) => [x.id, x.rank])).toEqual([
      [b.id, 0],
      [a1.id, 1],
    ]);
    const cycle = await t.admin('POST', `/admin/product-categories/${a.id}`, { parent_category_id: a1.id });
    expect(statusAndBody(cycle)).toMatchObject({ status: 400, type: 'invalid_data' });
    const withKids = await t.admin('DELETE', `/admin/product-categories/${a.id}`);
    expect(statusAndBody(withKids)).toMatchObject({ status: 400, type: 'not_allowed' });
    expect(await sdk.dashboard.admin.productCategory.delete(b.id)).toEqual({
      id: b.id,
      object: 'product_category',
      deleted: true,
    });
    kids = (await sdk.dashboard.admin.productCategory.retrieve(a.id)).product_category.category_children;
    expect(kids.map((x) => [x.id, x.rank])).toEqual([[a1.id, 0]]);
    expect((await t.admin('GET', `/admin/product-categories/${b.id}`)).statusCode).toBe(404);
    expect(
      (await t.admin('POST', '/admin/product-categories', { name: 'x', parent_category_id: 'pcat_nope' })).statusCode,
    ).toBe(404);
    expect((await t.admin('POST', '/admin/product-categories', { name: 'x', handle: a.handle })).statusCode).toBe(400);
    expect((await t.admin('POST', '/admin/product-categories', { name: 'x', rank: -1 })).statusCode).toBe(400);
  });

  it('links products (batch and on the product); a deleted category leaves them', async () => {
    const cat = await makeCategory(t);
    const p = await makeProduct(t);
    await sdk.dashboard.admin.productCategory.updateProducts(cat.id, { add: [p.id] });
    expect(
      (await t.admin('GET', `/admin/products/${p.id}`)).json().product.categories.map((c: { id: string }) => c.id),
    ).toEqual([cat.id]);
    const bad = await t.admin('POST', '/admin/products', { title: 'x', categories: [{ id: 'pcat_nope' }] });
    expect(statusAndBody(bad)).toMatchObject({
      status: 400,
      message: 'Product categories with ids pcat_nope do not exist',
    });
    await sdk.dashboard.admin.productCategory.delete(cat.id);
    expect((await t.admin('GET', `/admin/products/${p.id}`)).json().product.categories).toEqual([]);
  });
});

describe('store product categories', () => {
  it('shows only active, public categories, with trees, parents, handles and *products', async () => {
    const { tag, root, a, a1 } = await tree();
    const product = await makeProduct(t, {
      status: 'published',
      sales_channels: [{ id: channel }],
      categories: [{ id: a.id }],
    });
    const list = await sdk.storefront.store.category.list({ q: tag, limit: 100 });
    expectSchema(StoreCategoryList, list);
    // In rank order, then creation order: Root is ranked among every root of the shop.
    expect(names(list.product_categories).sort()).toEqual([`A ${tag}`, `A1 ${tag}`, `Root ${tag}`]);
    const top = list.product_categories.find((x) => x.id === root.id)!;
    expect(names(top.category_children)).toEqual([`A ${tag}`]);
    expect((top as unknown as Record<string, unknown>).is_active).toBeUndefined();

    const roots = await sdk.storefront.store.category.list({
      parent_category_id: 'null',
      include_descendants_tree: true,
      q: tag,
    });
    expect(names(roots.product_categories)).toEqual([`Root ${tag}`]);
    expect(names(roots.product_categories[0].category_children[0].category_children)).toEqual([`A1 ${tag}`]);

    // The DTC starter's footer expression, then its category page (by handle).
    const footer = await t.store(
      'GET',
      `/store/product-categories?q=${tag}&fields=*category_children,*products,*parent_category,*parent_category.parent_category&limit=100`,
    );
    const a1View = footer.json().product_categories.find((c: { id: string }) => c.id === a1.id);
    expect(a1View.parent_category).toMatchObject({ id: a.id, parent_category: { id: root.id } });
    expect(footer.json().product_categories.find((c: { id: string }) => c.id === a.id).products).toMatchObject([
      { id: product.id },
    ]);
    const byHandle = await sdk.storefront.store.category.list({
      handle: a.handle,
      fields: '*category_children, *products',
    } as never);
    expect(byHandle.product_categories.map((c) => c.id)).toEqual([a.id]);

    const one = await sdk.storefront.store.category.retrieve(a1.id, { include_ancestors_tree: true });
    expectSchema(StoreCategoryEnvelope, one);
    expect(one.product_category.parent_category?.parent_category).toMatchObject({ id: root.id });

    const { product: seen } = (await t.store('GET', `/store/products/${product.id}`)).json();
    expect(seen.categories.map((c: { id: string }) => c.id)).toEqual([a.id]);
  });

  it('404 for inactive, internal, deleted and unknown categories; 400 for bad queries', async () => {
    const { b, c } = await tree();
    for (const id of [b.id, c.id, 'pcat_nope']) {
      expect(statusAndBody(await t.store('GET', `/store/product-categories/${id}`))).toEqual({
        status: 404,
        type: 'not_found',
        code: 'category_not_found',
        message: `Product category with id: ${id} was not found`,
      });
    }
    expect((await t.store('GET', '/store/product-categories?include_descendants_tree=maybe')).statusCode).toBe(400);
    expect((await t.store('GET', '/store/product-categories?limit=-1')).statusCode).toBe(400);
    expect((await t.store('GET', '/store/product-categories?is_internal=true')).statusCode).toBe(200);
  });
});
