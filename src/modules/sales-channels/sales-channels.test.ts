import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { newId } from '../../platform/ids.ts';
import { productSalesChannels, products } from '../products/tables.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

// Tests share one database: each names its channels with a unique token and filters lists by it.
let seq = 0;
const token = () => `sctok${++seq}x${Date.now().toString(36)}`;

async function createChannel(body: Record<string, unknown>) {
  const res = await t.admin('POST', '/admin/sales-channels', body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().sales_channel;
}

// The products API belongs to another module; rows are written directly so these tests stand alone.
async function insertProduct(opts: { deleted?: boolean } = {}): Promise<string> {
  const id = newId('prod');
  const now = t.clock.now();
  await t.database.db.insert(products).values({
    id,
    title: id,
    handle: id,
    status: 'published',
    created_at: now,
    updated_at: now,
    deleted_at: opts.deleted ? now : null,
  });
  return id;
}

async function linkedProducts(channelId: string): Promise<string[]> {
  const found = await t.database.db
    .select({ id: productSalesChannels.product_id })
    .from(productSalesChannels)
    .where(eq(productSalesChannels.sales_channel_id, channelId));
  return found.map((r) => r.id).sort();
}

describe('sales channels: create, read, update', () => {
  it('creates a channel with every field and reads it back', async () => {
    const channel = await createChannel({
      name: 'Web',
      description: 'The web shop',
      is_disabled: true,
      metadata: { a: 1 },
    });
    expect(channel.id).toMatch(/^sc_[0-9A-Z]{26}$/);
    expect(channel).toEqual({
      id: channel.id,
      name: 'Web',
      description: 'The web shop',
      is_disabled: true,
      metadata: { a: 1 },
      created_at: t.clock.now().toISOString(),
      updated_at: t.clock.now().toISOString(),
    });
    const got = await t.admin('GET', `/admin/sales-channels/${channel.id}`);
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual({ sales_channel: channel });
  });

  it('defaults description, is_disabled and metadata', async () => {
    const channel = await createChannel({ name: 'POS' });
    expect(channel).toMatchObject({ name: 'POS', description: null, is_disabled: false, metadata: null });
  });

  it.each([
    [{}, "Field 'name' is required"],
    [{ name: 'x', foo: 1 }, "Unrecognized fields: 'foo'"],
    [{ name: 5 }, "Expected type: 'string' for field 'name'"],
    [{ name: 'x', is_disabled: 'yes' }, "Expected type: 'boolean' for field 'is_disabled'"],
    [{ name: 'x', metadata: 'text' }, 'metadata'],
    [{ name: '' }, 'name'],
  ])('rejects the create body %j', async (body, message) => {
    const res = await t.admin('POST', '/admin/sales-channels', body);
    expect(res.statusCode).toBe(400);
    expect(res.json().type).toBe('invalid_data');
    expect(res.json().message).toContain(message);
  });

  it('rejects malformed JSON with 400', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/admin/sales-channels',
      payload: '{"name":',
      headers: { authorization: `Bearer ${t.adminToken}`, 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().type).toBe('invalid_data');
  });

  it('404s an unknown channel with Medusa message, and refuses an absurd id', async () => {
    const res = await t.admin('GET', '/admin/sales-channels/sc_nope');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      type: 'not_found',
      code: 'sales_channel_not_found',
      message: 'Sales channel with id: sc_nope not found',
    });
    // Over-long ids fail the params schema (400 naming the field), never a 500.
    const long = await t.admin('GET', `/admin/sales-channels/${'x'.repeat(201)}`);
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toContain("'id'");
  });

  it('updates by POST and by PATCH, keeping fields not sent', async () => {
    const channel = await createChannel({ name: 'Before', description: 'desc', metadata: { k: 'v' } });
    t.clock.advance(60_000);
    const post = await t.admin('POST', `/admin/sales-channels/${channel.id}`, { name: 'After', is_disabled: true });
    expect(post.statusCode).toBe(200);
    expect(post.json().sales_channel).toEqual({
      ...channel,
      name: 'After',
      is_disabled: true,
      updated_at: t.clock.now().toISOString(),
    });
    const patch = await t.admin('PATCH', `/admin/sales-channels/${channel.id}`, { description: null, metadata: null });
    expect(patch.statusCode).toBe(200);
    expect(patch.json().sales_channel).toMatchObject({
      name: 'After',
      description: null,
      metadata: null,
      is_disabled: true,
    });
    expect((await t.admin('GET', `/admin/sales-channels/${channel.id}`)).json().sales_channel.description).toBeNull();
  });

  it('rejects bad updates and 404s unknown ones', async () => {
    const channel = await createChannel({ name: 'Stable' });
    const unknownField = await t.admin('PATCH', `/admin/sales-channels/${channel.id}`, { title: 'x' });
    expect(unknownField.statusCode).toBe(400);
    expect(unknownField.json().message).toContain("Unrecognized fields: 'title'");
    expect((await t.admin('POST', `/admin/sales-channels/${channel.id}`, { name: ['x'] })).statusCode).toBe(400);
    const missing = await t.admin('POST', '/admin/sales-channels/sc_missing', { name: 'x' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('Sales channel with id: sc_missing not found');
  });
});

describe('sales channels: listing', () => {
  it('answers the Medusa envelope with default limit 20, oldest first', async () => {
    const tok = token();
    const a = await createChannel({ name: `${tok} a` });
    const b = await createChannel({ name: `${tok} b` });
    const res = await t.admin('GET', `/admin/sales-channels?q=${tok}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ sales_channels: [a, b], count: 2, limit: 20, offset: 0 });
  });

  it('filters by q over name and description, case-insensitively, with literal wildcards', async () => {
    const tok = token();
    const byName = await createChannel({ name: `${tok.toUpperCase()} shop` });
    const byDesc = await createChannel({ name: 'other', description: `about ${tok}` });
    await createChannel({ name: `${tok}%literal` });
    const res = await t.admin('GET', `/admin/sales-channels?q=${tok}`);
    expect(res.json().sales_channels.map((c: { id: string }) => c.id)).toContain(byDesc.id);
    expect(res.json().count).toBe(3);
    expect(res.json().sales_channels[0].id).toBe(byName.id);
    const pct = await t.admin('GET', `/admin/sales-channels?q=${encodeURIComponent(`${tok}%`)}`);
    expect(pct.json().count).toBe(1);
  });

  it('filters by id (repeated or comma list), name and is_disabled', async () => {
    const tok = token();
    const a = await createChannel({ name: `${tok}-a` });
    const b = await createChannel({ name: `${tok}-b`, is_disabled: true });
    const c = await createChannel({ name: `${tok}-c` });
    const ids = (r: { json(): { sales_channels: { id: string }[] } }) => r.json().sales_channels.map((x) => x.id);
    expect(ids(await t.admin('GET', `/admin/sales-channels?id=${a.id}`))).toEqual([a.id]);
    expect(ids(await t.admin('GET', `/admin/sales-channels?id=${a.id}&id=${c.id}`))).toEqual([a.id, c.id]);
    expect(ids(await t.admin('GET', `/admin/sales-channels?id=${b.id},${c.id}`))).toEqual([b.id, c.id]);
    expect(ids(await t.admin('GET', `/admin/sales-channels?name=${tok}-b`))).toEqual([b.id]);
    expect(ids(await t.admin('GET', `/admin/sales-channels?q=${tok}&is_disabled=true`))).toEqual([b.id]);
    expect(ids(await t.admin('GET', `/admin/sales-channels?q=${tok}&is_disabled=false`))).toEqual([a.id, c.id]);
    expect((await t.admin('GET', '/admin/sales-channels?is_disabled=maybe')).statusCode).toBe(400);
  });

  it('handles pagination edges', async () => {
    const tok = token();
    const made = [];
    for (let i = 0; i < 3; i++) made.push(await createChannel({ name: `${tok} ${i}` }));
    const page = await t.admin('GET', `/admin/sales-channels?q=${tok}&limit=2&offset=1`);
    expect(page.json()).toEqual({ sales_channels: made.slice(1, 3), count: 3, limit: 2, offset: 1 });
    expect((await t.admin('GET', `/admin/sales-channels?q=${tok}&limit=0`)).json()).toEqual({
      sales_channels: [],
      count: 3,
      limit: 0,
      offset: 0,
    });
    expect((await t.admin('GET', `/admin/sales-channels?q=${tok}&offset=10`)).json()).toEqual({
      sales_channels: [],
      count: 3,
      limit: 20,
      offset: 10,
    });
    expect((await t.admin('GET', `/admin/sales-channels?q=${tok}&limit=5000`)).json().limit).toBe(1000);
    expect((await t.admin('GET', '/admin/sales-channels?limit=-1')).statusCode).toBe(400);
    expect((await t.admin('GET', '/admin/sales-channels?offset=abc')).statusCode).toBe(400);
  });
});

describe('sales channels: delete', () => {
  it('soft-deletes, then 404s, hides it from lists and unlinks keys and products', async () => {
    const channel = await createChannel({ name: `${token()} doomed` });
    const key = (await t.admin('POST', '/admin/api-keys', { title: 'k', type: 'publishable' })).json().api_key;
    expect((await t.admin('POST', `/admin/api-keys/${key.id}/sales-channels`, { add: [channel.id] })).statusCode).toBe(
      200,
    );
    const product = await insertProduct();
    expect((await t.admin('POST', `/admin/sales-channels/${channel.id}/products`, { add: [product] })).statusCode).toBe(
      200,
    );

    const res = await t.admin('DELETE', `/admin/sales-channels/${channel.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: channel.id, object: 'sales-channel', deleted: true });
    const got = await t.admin('GET', `/admin/sales-channels/${channel.id}`);
    expect(got.statusCode).toBe(404);
    expect(got.json().message).toBe(`Sales channel with id: ${channel.id} not found`);
    expect((await t.admin('GET', `/admin/sales-channels?id=${channel.id}`)).json().count).toBe(0);
    expect((await t.admin('GET', `/admin/api-keys/${key.id}`)).json().api_key.sales_channels).toEqual([]);
    expect(await linkedProducts(channel.id)).toEqual([]);
    expect((await t.admin('DELETE', `/admin/sales-channels/${channel.id}`)).statusCode).toBe(404);
    expect((await t.admin('PATCH', `/admin/sales-channels/${channel.id}`, { name: 'zombie' })).statusCode).toBe(404);
  });
});

describe('sales channels: products batch', () => {
  it('adds and removes products, idempotently', async () => {
    const channel = await createChannel({ name: 'Batch' });
    const [p1, p2, p3] = [await insertProduct(), await insertProduct(), await insertProduct()];
    const add = await t.admin('POST', `/admin/sales-channels/${channel.id}/products`, { add: [p1, p2, p2] });
    expect(add.statusCode).toBe(200);
    expect(add.json()).toEqual({ sales_channel: channel });
    expect(await linkedProducts(channel.id)).toEqual([p1, p2].sort());
    await t.admin('POST', `/admin/sales-channels/${channel.id}/products`, { add: [p1, p3], remove: [p2] });
    expect(await linkedProducts(channel.id)).toEqual([p1, p3].sort());
    expect((await t.admin('POST', `/admin/sales-channels/${channel.id}/products`, {})).statusCode).toBe(200);
    expect(await linkedProducts(channel.id)).toEqual([p1, p3].sort());
  });

  it('rejects unknown or deleted products by name and writes nothing', async () => {
    const channel = await createChannel({ name: 'Strict' });
    const live = await insertProduct();
    const gone = await insertProduct({ deleted: true });
    const res = await t.admin('POST', `/admin/sales-channels/${channel.id}/products`, {
      add: [live, 'prod_phony', gone],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().type).toBe('invalid_data');
    expect(res.json().message).toContain('prod_phony');
    expect(res.json().message).toContain(gone);
    expect(res.json().message).not.toContain(live);
    expect(await linkedProducts(channel.id)).toEqual([]);
  });

  it('404s an unknown channel and validates the body', async () => {
    const product = await insertProduct();
    const missing = await t.admin('POST', '/admin/sales-channels/sc_none/products', { add: [product] });
    expect(missing.statusCode).toBe(404);
    const rows = await t.database.db
      .select()
      .from(productSalesChannels)
      .where(and(eq(productSalesChannels.product_id, product)));
    expect(rows).toEqual([]);
    const channel = await createChannel({ name: 'Body' });
    for (const body of [{ add: product }, { add: [product], extra: true }, { remove: [5] }]) {
      const res = await t.admin('POST', `/admin/sales-channels/${channel.id}/products`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
  });
});

describe('sales channels: auth', () => {
  it('requires a token and keeps viewers read-only', async () => {
    expect((await t.inject({ method: 'GET', url: '/admin/sales-channels' })).statusCode).toBe(401);
    const channel = await createChannel({ name: 'Guarded' });
    const viewer = { token: t.viewerToken };
    expect((await t.admin('GET', '/admin/sales-channels', undefined, viewer)).statusCode).toBe(200);
    expect((await t.admin('GET', `/admin/sales-channels/${channel.id}`, undefined, viewer)).statusCode).toBe(200);
    const writes = [
      ['POST', '/admin/sales-channels', { name: 'nope' }],
      ['POST', `/admin/sales-channels/${channel.id}`, { name: 'nope' }],
      ['PATCH', `/admin/sales-channels/${channel.id}`, { name: 'nope' }],
      ['DELETE', `/admin/sales-channels/${channel.id}`, undefined],
      ['POST', `/admin/sales-channels/${channel.id}/products`, { add: [] }],
    ] as const;
    for (const [method, url, body] of writes) {
      const res = await t.admin(method, url, body, viewer);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().type).toBe('forbidden');
    }
    expect((await t.admin('GET', `/admin/sales-channels/${channel.id}`)).json().sales_channel.name).toBe('Guarded');
  });
});
