import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, statusAndBody } from '../../../test/app.ts';
import { medusaSdks, type Sdk } from '../../../test/medusa-sdk.ts';
import {
  defaultChannelId,
  expectSchema,
  insertChannel,
  makeProduct,
  outboxEvents,
  uniq,
} from '../products/products.testing.ts';
import { CollectionEnvelope, CollectionList } from './schema.ts';

let t: TestApp;
let sdk: { storefront: Sdk; dashboard: Sdk };
let channel: string;
beforeAll(async () => {
  t = await startTestApp();
  sdk = await medusaSdks(t);
  channel = await defaultChannelId(t);
});
afterAll(() => t.close());

describe('admin collections', () => {
  it('creates (handle from title), lists, retrieves, updates and soft-deletes through the SDK', async () => {
    const title = `Summer ${uniq()}`;
    const { collection } = await sdk.dashboard.admin.productCollection.create({
      title,
      metadata: { season: 'summer' },
    });
    expect(collection).toMatchObject({
      title,
      handle: title.toLowerCase().replace(' ', '-'),
      metadata: { season: 'summer' },
    });
    expect(collection.id).toMatch(/^pcol_/);
    expect(collection.deleted_at).toBeNull();

    const list = await sdk.dashboard.admin.productCollection.list({ q: title.slice(-8), limit: 5 });
    expectSchema(CollectionList, list);
    expect(list).toMatchObject({ count: 1, limit: 5, offset: 0 });
    expect(list.collections.map((c) => c.id)).toEqual([collection.id]);
    expect(
      (await sdk.dashboard.admin.productCollection.list({ handle: [collection.handle] })).collections,
    ).toHaveLength(1);

    const updated = await sdk.dashboard.admin.productCollection.update(collection.id, {
      title: 'Renamed',
      handle: `renamed-${uniq()}`,
    });
    expect(updated.collection).toMatchObject({ id: collection.id, title: 'Renamed' });
    expect((await sdk.dashboard.admin.productCollection.retrieve(collection.id)).collection.title).toBe('Renamed');

    expect(await sdk.dashboard.admin.productCollection.delete(collection.id)).toEqual({
      id: collection.id,
      object: 'collection',
      deleted: true,
    });
    expect(statusAndBody(await t.admin('GET', `/admin/collections/${collection.id}`))).toEqual({
      status: 404,
      type: 'not_found',
      code: 'collection_not_found',
      message: `Product collection with id: ${collection.id} was not found`,
    });
  });

  it('400 for a taken handle, bad bodies and unknown products; 404 for unknown collections', async () => {
    const a = (await t.admin('POST', '/admin/collections', { title: 'A', handle: `h-${uniq()}` })).json().collection;
    expect(statusAndBody(await t.admin('POST', '/admin/collections', { title: 'B', handle: a.handle }))).toEqual({
      status: 400,
      type: 'invalid_data',
      code: 'collection_handle_taken',
      message: `Product collection with handle: ${a.handle}, already exists.`,
    });
    for (const body of [{}, { title: '' }, { title: 'x', color: 'red' }, { title: 'x', handle: 'has space' }]) {
      expect((await t.admin('POST', '/admin/collections', body)).statusCode).toBe(400);
    }
    const missing = await t.admin('POST', `/admin/collections/${a.id}/products`, { add: ['prod_nope'] });
    expect(statusAndBody(missing)).toMatchObject({ status: 400, message: 'Products with IDs prod_nope do not exist' });
    for (const [method, url] of [
      ['GET', '/admin/collections/pcol_nope'],
      ['POST', '/admin/collections/pcol_nope'],
      ['DELETE', '/admin/collections/pcol_nope'],
    ]) {
      expect((await t.admin(method, url, method === 'POST' ? {} : undefined)).statusCode).toBe(404);
    }
    expect((await t.admin('POST', '/admin/collections', { title: 'x' }, { token: t.viewerToken })).statusCode).toBe(
      403,
    );
  });

  it('moves products in and out; the product shows its collection; deleting it detaches them with product.updated', async () => {
    const { collection } = await sdk.dashboard.admin.productCollection.create({ title: `Links ${uniq()}` });
    const [p1, p2] = [await makeProduct(t), await makeProduct(t)];
    await sdk.dashboard.admin.productCollection.updateProducts(collection.id, { add: [p1.id, p2.id] });
    const { product } = (await t.admin('GET', `/admin/products/${p1.id}`)).json();
    expect(product.collection_id).toBe(collection.id);
    expect(product.collection).toMatchObject({ id: collection.id, title: collection.title, handle: collection.handle });
    expect((await outboxEvents(t, p1.id)).map((e) => e.name)).toEqual(['product.created', 'product.updated']);

    await sdk.dashboard.admin.productCollection.updateProducts(collection.id, { remove: [p2.id] });
    expect((await t.admin('GET', `/admin/products/${p2.id}`)).json().product.collection).toBeNull();

    await sdk.dashboard.admin.productCollection.delete(collection.id);
    const after = (await t.admin('GET', `/admin/products/${p1.id}`)).json().product;
    expect(after).toMatchObject({ collection_id: null, collection: null });
    expect((await outboxEvents(t, p1.id)).map((e) => e.name)).toEqual([
      'product.created',
      'product.updated',
      'product.updated',
    ]);
    expect((await t.admin('GET', `/admin/products?collection_id=${collection.id}`)).json().count).toBe(0);
  });
});

describe('store collections', () => {
  it('lists and retrieves through the SDK; *products gives the published products the key sells', async () => {
    const { collection } = await sdk.dashboard.admin.productCollection.create({ title: `Store ${uniq()}` });
    const visible = await makeProduct(t, {
      status: 'published',
      sales_channels: [{ id: channel }],
      collection_id: collection.id,
    });
    await makeProduct(t, { status: 'draft', sales_channels: [{ id: channel }], collection_id: collection.id });
    await makeProduct(t, {
      status: 'published',
      sales_channels: [{ id: await insertChannel(t) }],
      collection_id: collection.id,
    });

    const plain = await sdk.storefront.store.collection.list({ handle: [collection.handle] });
    expectSchema(CollectionList, plain);
    expect(plain).toMatchObject({ count: 1, offset: 0, limit: 10 });
    expect(plain.collections[0]).toEqual({ ...collection, updated_at: collection.updated_at });
    expect(plain.collections[0].products).toBeUndefined();

    const withProducts = await sdk.storefront.store.collection.retrieve(collection.id, { fields: '*products' });
    expectSchema(CollectionEnvelope, withProducts);
    expect(withProducts.collection.products?.map((p) => p.id)).toEqual([visible.id]);
    expect(withProducts.collection.products?.[0]).toMatchObject({ title: visible.title, images: [], variants: null });

    const res = await t.store('GET', `/store/collections/${collection.id}?fields=id,title,-metadata,%2Bproducts.id`);
    expect(res.json().collection.products).toHaveLength(1);
    expect(statusAndBody(await t.store('GET', '/store/collections?fields=a%20b'))).toMatchObject({ status: 400 });
    expect(statusAndBody(await t.store('GET', '/store/collections/pcol_nope'))).toMatchObject({
      status: 404,
      type: 'not_found',
    });
    expect((await t.store('GET', '/store/collections', undefined, { key: null })).statusCode).toBe(400);
  });
});
