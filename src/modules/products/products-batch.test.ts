import type { HttpTypes } from '@medusajs/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { medusaSdks } from '../../../test/medusa-sdk.ts';
import { BatchProductsResponse } from './schema.ts';
import { defaultChannelId, expectSchema, makeProduct, outboxEvents, uniq, batchItem } from './products.testing.ts';

let t: TestApp;
let channel: string;
beforeAll(async () => {
  t = await startTestApp();
  channel = await defaultChannelId(t);
});
afterAll(() => t.close());

const batch = (body: unknown, token?: string) =>
  t.admin('POST', '/admin/products/batch', body as Record<string, unknown>, { token });

/** A product as an importer sends it: published in the default channel, two variants with prices. */
const item = (title = `Batch ${uniq()}`, extra: Record<string, unknown> = {}) => batchItem(channel, title, extra);

const liveCount = async () => (await t.admin('GET', '/admin/products?limit=0')).json().count as number;
const storeIds = async (ids: string[]) =>
  (await t.store('GET', `/store/products?${ids.map((id) => `id[]=${id}`).join('&')}`))
    .json()
    .products.map((p: { id: string }) => p.id);

describe('POST /admin/products/batch', () => {
  it('creates, updates and deletes in one request, with the single routes’ answers and events', async () => {
    const kept = await makeProduct(t, item());
    const doomed = await makeProduct(t, item());
    const res = await batch({
      create: [item('Batch one'), item('Batch two', { status: 'draft' })],
      update: [{ id: kept.id, title: 'Renamed', variants: [{ id: kept.variants[0].id, inventory_quantity: 9 }] }],
      delete: [doomed.id, doomed.id],
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expectSchema(BatchProductsResponse, body);
    // In the request's order, each what GET answers afterwards.
    expect(body.created.map((p: { handle: string }) => p.handle)).toEqual(['batch-one', 'batch-two']);
    for (const p of [...body.created, ...body.updated]) {
      expect((await t.admin('GET', `/admin/products/${p.id}`)).json()).toEqual({ product: p });
    }
    expect(body.created[0]).toMatchObject({ status: 'published', sales_channels: [{ id: channel }] });
    expect(body.created[0].variants.map((v: { sku: string }) => v.sku)).toEqual(['Batch one-S', 'Batch one-M']);
    expect(body.updated).toHaveLength(1);
    expect(body.updated[0]).toMatchObject({ id: kept.id, title: 'Renamed' });
    expect(body.updated[0].variants[0].inventory_quantity).toBe(9);
    expect(body.deleted).toEqual({ ids: [doomed.id], object: 'product', deleted: true });
    expect((await t.admin('GET', `/admin/products/${doomed.id}`)).statusCode).toBe(404);

    // The store's documents were rebuilt in the same transaction: the published one shows, the draft and the deleted do not.
    const [one, two] = body.created;
    expect(await storeIds([one.id, two.id, kept.id, doomed.id])).toEqual([kept.id, one.id]);
    expect((await t.store('GET', `/store/products/${kept.id}`)).json().product.title).toBe('Renamed');

    const names = async (id: string) => (await outboxEvents(t, id)).map((e) => e.name);
    expect(await outboxEvents(t, one.id)).toEqual([{ name: 'product.created', payload: one }]);
    expect(await names(two.id)).toEqual(['product.created']);
    expect(await names(kept.id)).toEqual(['product.created', 'product.updated']);
    expect((await outboxEvents(t, kept.id))[1].payload).toEqual(body.updated[0]);
    expect(await outboxEvents(t, doomed.id)).toEqual([
      expect.objectContaining({ name: 'product.created' }),
      { name: 'product.deleted', payload: { id: doomed.id } },
    ]);
  });

  it('answers Medusa’s JS SDK with its AdminBatchProductResponse', async () => {
    const { dashboard } = await medusaSdks(t);
    const answer: HttpTypes.AdminBatchProductResponse = await dashboard.admin.product.batch({
      create: [{ title: 'From the SDK', options: [{ title: 'Size', values: ['S'] }] }],
      delete: [],
    });
    expect(answer.created[0]).toMatchObject({ title: 'From the SDK', handle: 'from-the-sdk' });
    expect(answer.updated).toEqual([]);
    expect(answer.deleted).toEqual({ ids: [], object: 'product', deleted: true });
  });

  it('is documented in the OpenAPI document like the single routes', async () => {
    const doc = (await t.inject({ method: 'GET', url: '/openapi.json' })).json();
    const op = doc.paths['/admin/products/batch'].post;
    expect(op.tags).toEqual(['products']);
    expect(op.summary).toContain('one transaction');
    const body = op.requestBody.content['application/json'].schema;
    expect(Object.keys(body.properties)).toEqual(['create', 'update', 'delete']);
    expect(Object.keys(op.responses['200'].content['application/json'].schema.properties)).toEqual([
      'created',
      'updated',
      'deleted',
    ]);
  });

  it('answers {} with empty lists', async () => {
    const res = await batch({});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ created: [], updated: [], deleted: { ids: [], object: 'product', deleted: true } });
  });

  type Body = { create?: unknown[]; update?: unknown[]; delete?: string[] };
  const failing: [string, () => Body, number, string, string][] = [
    [
      'a handle already taken',
      () => ({ create: [item(), item('x', { handle: 'taken' })] }),
      400,
      'invalid_data',
      'Product with handle: taken, already exists.',
    ],
    [
      'a handle twice in the batch',
      () => ({ create: [item('Twin'), item('Twin')] }),
      400,
      'invalid_data',
      'Product with handle: twin, already exists.',
    ],
    [
      'a SKU twice in the batch',
      () => ({ create: [item('Sku a'), item('Sku b', { variants: [{ title: 'S', sku: 'Sku a-S' }] })] }),
      400,
      'invalid_data',
      'Product variant with sku: Sku a-S, already exists.',
    ],
    [
      'an unknown sales channel',
      () => ({ create: [item(), item('x', { sales_channels: [{ id: 'sc_nope' }] })] }),
      400,
      'invalid_data',
      'Sales channels with IDs sc_nope do not exist',
    ],
    [
      'an item the schema refuses',
      () => ({ create: [item(), { status: 'published' }] }),
      400,
      'invalid_data',
      `Field 'create.1.title' is required`,
    ],
    [
      'an update of an unknown product',
      () => ({ create: [item()], update: [{ id: 'prod_nope', title: 'x' }] }),
      404,
      'not_found',
      'Product with id: prod_nope was not found',
    ],
  ];
  it.each(failing)('writes nothing when one item fails: %s', async (_case, makeBody, status, type, message) => {
    if (!(await t.admin('GET', '/admin/products?handle=taken')).json().count) await makeProduct(t, { handle: 'taken' });
    // Every batch also updates a product first: that change must be rolled back too.
    const victim = await makeProduct(t, item());
    const before = { products: await liveCount(), events: (await outboxEvents(t)).length };
    const body = makeBody();
    const res = await batch({ ...body, update: [{ id: victim.id, title: 'Changed' }, ...(body.update ?? [])] });
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json().type).toBe(type);
    expect(res.json().message).toContain(message);
    expect({ products: await liveCount(), events: (await outboxEvents(t)).length }).toEqual(before);
    expect((await t.admin('GET', `/admin/products/${victim.id}`)).json().product.title).toBe(victim.title);
  });

  it('refuses viewers (403), like every admin write', async () => {
    const before = await liveCount();
    const res = await batch({ create: [item()] }, t.viewerToken);
    expect(res.statusCode).toBe(403);
    expect(res.json().type).toBe('forbidden');
    expect(await liveCount()).toBe(before);
  });

  it('takes 1,000 items at most, create, update and delete together', async () => {
    const ids = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}_${i}`);
    const over = await batch({ update: ids(500, 'prod_u').map((id) => ({ id })), delete: ids(501, 'prod_d') });
    expect(over.statusCode).toBe(400);
    expect(over.json()).toEqual({
      type: 'invalid_data',
      code: 'product_batch_too_large',
      message: 'A batch takes at most 1000 items (create, update and delete together), got 1001',
    });
    const oneList = await batch({ delete: ids(1001, 'prod_d') });
    expect(oneList.statusCode).toBe(400);
    expect(oneList.json().type).toBe('invalid_data');
  });

  it('reads bodies past the app’s 1 MB (up to 16 MB) for this route only', async () => {
    // Past 1 MB, the schema judges it (a description over 100,000 characters), not the body limit.
    const long = await batch({ create: [{ title: 'x', description: 'd'.repeat(1_200_000) }] });
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toContain('description');
    const huge = await batch({ create: [{ title: 'x', description: 'd'.repeat(17 * 1024 * 1024) }] });
    expect(huge.statusCode).toBe(413);
    expect(huge.json().type).toBe('payload_too_large');
    const elsewhere = await t.admin('POST', '/admin/products', { title: 'x', description: 'd'.repeat(1_200_000) });
    expect(elsewhere.statusCode).toBe(413);
  });
});
