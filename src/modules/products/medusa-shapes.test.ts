import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { FIXTURES, sameShape } from '../../../test/medusa-fixtures.ts';
import { medusaSdks, type Sdk } from '../../../test/medusa-sdk.ts';
import { defaultChannelId, insertRegion, makeCategory, makeCollection, makeProduct } from './products.testing.ts';

/**
 * Our answers have the shapes of @medusajs/types' HttpTypes: test/medusa-fixtures.ts holds one
 * answer of each kind typed against HttpTypes (checked by `npm run typecheck`), and here the
 * live answers, fetched through the SDK with the storefront's own `fields`, must have exactly
 * the fixtures' shape (same keys at every depth, same JSON types where neither is null).
 */

// The DTC starter's product list and product page expression.
const STOREFRONT_FIELDS =
  '*variants.calculated_price,+variants.inventory_quantity,*variants.images,+metadata,+tags,*images,*categories,*collection,*type';

let t: TestApp;
let sdk: { storefront: Sdk };
let region: string;
let ids: { product: string; category: string; collection: string };
beforeAll(async () => {
  t = await startTestApp();
  sdk = await medusaSdks(t);
  region = await insertRegion(t, 'eur');
  const parent = await makeCategory(t, { name: 'Clothing' });
  const category = await makeCategory(t, { name: 'Shirts', parent_category_id: parent.id });
  await makeCategory(t, { name: 'Long sleeves', parent_category_id: category.id });
  const collection = await makeCollection(t, { title: 'Summer' });
  const type = (await t.admin('POST', '/admin/product-types', { value: 'Apparel' })).json().product_type;
  const tag = (await t.admin('POST', '/admin/product-tags', { value: 'cotton' })).json().product_tag;
  const product = await makeProduct(t, {
    title: 'Shirt',
    status: 'published',
    sales_channels: [{ id: await defaultChannelId(t) }],
    collection_id: collection.id,
    categories: [{ id: category.id }],
    type_id: type.id,
    tags: [{ id: tag.id }],
    thumbnail: 'http://shop.test/static/uploads/a.png',
    images: [{ url: 'http://shop.test/static/uploads/a.png' }],
    options: [{ title: 'Size', values: ['M'] }],
    variants: [{ title: 'M', options: { Size: 'M' }, prices: [{ currency_code: 'eur', amount: 1000 }] }],
  });
  await t.admin('POST', `/admin/products/${product.id}/variants/${product.variants[0].id}/images/batch`, {
    add: [product.images[0].id],
  });
  ids = { product: product.id, category: category.id, collection: collection.id };
});
afterAll(() => t.close());

describe('answers have the shapes of @medusajs/types HttpTypes', () => {
  it('store product (list and detail) with the storefront fields and a region', async () => {
    const list = await sdk.storefront.store.product.list({ fields: STOREFRONT_FIELDS, region_id: region, limit: 12 });
    expect(list.products).toHaveLength(1);
    expect(sameShape(list, FIXTURES.storeProductList)).toEqual([]);
    const one = await sdk.storefront.store.product.retrieve(ids.product, {
      fields: STOREFRONT_FIELDS,
      region_id: region,
    });
    expect(sameShape(one, FIXTURES.storeProduct)).toEqual([]);
    expect(one.product.variants?.[0].calculated_price?.calculated_amount).toBe(1000);
  });

  it('store collections and categories', async () => {
    const collections = await sdk.storefront.store.collection.list({ fields: '*products' } as never);
    expect(sameShape(collections, FIXTURES.storeCollectionList)).toEqual([]);
    const categories = await sdk.storefront.store.category.list({ id: [ids.category], fields: '*products' } as never);
    expect(sameShape(categories, FIXTURES.storeCategoryList)).toEqual([]);
  });
});
