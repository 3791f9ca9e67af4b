import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, anotherApp } from '../../../../test/app.ts';
import { MARKETPLACE_ENV, packExample, publish, uniqueSlug } from '../marketplace.testing.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: MARKETPLACE_ENV });
});
afterAll(() => t.close());

const get = (url: string) => t.inject({ method: 'GET', url });

async function published(example: string, manifest: Record<string, unknown>, fields: Record<string, string> = {}) {
  const res = await publish(t, await packExample(example, manifest), fields);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().item;
}

describe('GET /store/marketplace/feed', () => {
  it('is public and lists the newest version of each item', async () => {
    const id = uniqueSlug('feed');
    await published('order-notes', { id, version: '1.9.9' });
    t.clock.advance(1000);
    const newest = await published('order-notes', { id, version: '1.10.0', description: 'Ten' });
    t.clock.advance(1000);
    await published('order-notes', { id, version: '1.2.0' }); // published last, still not the newest

    const res = await get(`/store/marketplace/feed?search=${id}`); // no publishable key
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ count: 1, limit: 20, offset: 0 });
    const v = newest.versions[0];
    expect(body.products).toEqual([
      {
        id: newest.id,
        marketplace_id: `@acme/${id}`,
        vendor: 'acme',
        name: 'Order notes',
        type: 'integration',
        description: 'Keeps a note for every placed order and lists them in the admin API.',
        version: '1.10.0',
        price_eur: 0,
        billing: 'one_time',
        manifest: v.manifest,
        download_url: `/store/marketplace/download/@acme/${id}/1.10.0`,
        sha256: v.sha256,
        size: v.size,
        published_at: v.published_at,
        rating_average: null,
        rating_count: 0,
        active_installs: 0,
      },
    ]);
    expect(body.products[0].manifest).toMatchObject({ id, version: '1.10.0', description: 'Ten' });
  });

  it('filters by type and searches name, marketplace_id and description', async () => {
    const tag = uniqueSlug('find');
    const widget = await published('hello-widget', { id: `${tag}-w` });
    const byName = await published('order-notes', { id: uniqueSlug('other'), name: `Named ${tag}` });
    const byDescription = await published(
      'loyalty-points',
      { id: uniqueSlug('other') },
      { description: `Mentions ${tag.toUpperCase()} loudly` },
    );
    const ids = async (query: string) =>
      (await get(`/store/marketplace/feed?${query}`)).json().products.map((p: { id: string }) => p.id);

    expect((await ids(`search=${tag}`)).sort()).toEqual([widget.id, byName.id, byDescription.id].sort());
    expect(await ids(`search=${tag}&type=admin-extension`)).toEqual([widget.id]);
    expect((await ids(`search=${tag}&type=integration`)).sort()).toEqual([byName.id, byDescription.id].sort());
    expect(await ids(`search=${tag}&type=payment-provider`)).toEqual([]);
    expect(await ids(`search=@acme/${tag}-w`)).toEqual([widget.id]);
    expect(await ids('search=%25%25nothing_like_this%25')).toEqual([]); // LIKE wildcards are literal
    const bad = await get('/store/marketplace/feed?type=theme');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain("'type'");
  });

  it('pages with page (1-based) and per_page (default 20, at most 100)', async () => {
    const tag = uniqueSlug('paged');
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await published('hello-widget', { id: `${tag}-${i}` }));
    const order = made.map((m) => m.marketplace_id).sort();
    const page = async (query: string) => (await get(`/store/marketplace/feed?search=${tag}&${query}`)).json();

    const p2 = await page('page=2&per_page=2');
    expect(p2).toMatchObject({ count: 5, limit: 2, offset: 2 });
    expect(p2.products.map((p: { marketplace_id: string }) => p.marketplace_id)).toEqual(order.slice(2, 4));
    expect((await page('page=3&per_page=2')).products).toHaveLength(1);
    expect(await page('page=9&per_page=2')).toMatchObject({ products: [], count: 5, offset: 16 });
    expect(await page('per_page=0')).toMatchObject({ products: [], count: 5, limit: 0 });
    expect((await page('per_page=500')).limit).toBe(100);
    for (const q of ['page=0', 'page=-1', 'per_page=-1', 'page=abc'])
      expect((await get(`/store/marketplace/feed?${q}`)).statusCode, q).toBe(400);
  });

  it('leaves unpublished items out', async () => {
    const item = await published('hello-widget', { id: uniqueSlug('gone') });
    await t.admin('POST', `/admin/marketplace/items/${item.id}/unpublish`);
    expect((await get(`/store/marketplace/feed?search=${item.marketplace_id}`)).json().count).toBe(0);
    expect((await get(`/store/marketplace/feed/${item.marketplace_id}`)).statusCode).toBe(404);
  });
});

describe('GET /store/marketplace/feed/{marketplaceId}', () => {
  it('answers one item with all versions, the slash in the path as is or encoded', async () => {
    const id = uniqueSlug('detail');
    await published(
      'order-notes',
      { id },
      { changelog_url: 'https://acme.example/1.0.0', description: 'Long description' },
    );
    t.clock.advance(1000);
    const latest = await published('order-notes', { id, version: '1.1.0' });
    for (const path of [`@acme/${id}`, `@acme%2F${id}`, `%40acme%2F${id}`]) {
      const res = await get(`/store/marketplace/feed/${path}`);
      expect(res.statusCode, path).toBe(200);
      const product = res.json().product;
      expect(product).toMatchObject({
        id: latest.id,
        marketplace_id: `@acme/${id}`,
        version: '1.1.0',
        description: 'Long description',
        changelog_url: 'https://acme.example/1.0.0',
      });
      expect(product.versions).toEqual(
        latest.versions.map((v: Record<string, unknown>) => ({
          version: v.version,
          published_at: v.published_at,
          sha256: v.sha256,
          size: v.size,
          changelog_url: 'https://acme.example/1.0.0',
        })),
      );
    }
  });

  it('404s unknown and malformed ids', async () => {
    for (const path of ['@acme/no-such-plugin', 'acme', '@acme', '@acme/x/y', '@ACME/x', '@acme/x%2Fy']) {
      const res = await get(`/store/marketplace/feed/${path}`);
      expect(res.statusCode, path).toBe(404);
      expect(res.json().type).toBe('not_found');
    }
  });
});

describe('GET /store/marketplace/updates', () => {
  it('lists only items with a newer version, compared numerically', async () => {
    const a = uniqueSlug('upd-a');
    const b = uniqueSlug('upd-b');
    await published('hello-widget', { id: a, version: '1.9.9' });
    await published('hello-widget', { id: a, version: '1.10.0' }, { changelog_url: 'https://acme.example/a/1.10.0' });
    await published('order-notes', { id: b, version: '2.0' });
    const versions = { [`@acme/${a}`]: '1.9.9', [`@acme/${b}`]: '2.0.0', '@acme/unknown-item': '1.0.0' };
    const res = await get(`/store/marketplace/updates?versions=${encodeURIComponent(JSON.stringify(versions))}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      updates: [
        {
          marketplace_id: `@acme/${a}`,
          current: '1.9.9',
          latest: '1.10.0',
          changelog_url: 'https://acme.example/a/1.10.0',
        },
      ],
    });

    const older = await get(
      `/store/marketplace/updates?versions=${encodeURIComponent(JSON.stringify({ [`@acme/${b}`]: '1.99' }))}`,
    );
    expect(older.json().updates).toEqual([
      {
        marketplace_id: `@acme/${b}`,
        current: '1.99',
        latest: '2.0',
        changelog_url: `http://market.test/store/marketplace/feed/@acme/${b}`,
      },
    ]);
    const current = await get(
      `/store/marketplace/updates?versions=${encodeURIComponent(JSON.stringify({ [`@acme/${a}`]: '1.10' }))}`,
    );
    expect(current.json()).toEqual({ updates: [] });
  });

  it('answers 400 for bad JSON, a non-object, a bad version or no versions', async () => {
    for (const raw of ['{not json', '[]', '"x"', 'null', '{"@acme/x": 1}', '{"@acme/x": "v1"}']) {
      const res = await get(`/store/marketplace/updates?versions=${encodeURIComponent(raw)}`);
      expect(res.statusCode, raw).toBe(400);
      expect(res.json()).toMatchObject({ type: 'invalid_data', message: expect.stringContaining('versions') });
    }
    expect((await get('/store/marketplace/updates')).statusCode).toBe(400);
  });
});

describe('GET /store/marketplace/keys', () => {
  it('publishes the Ed25519 key generated at first start', async () => {
    const res = await get('/store/marketplace/keys');
    expect(res.statusCode).toBe(200);
    const { keys } = res.json();
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ key_id: expect.stringMatching(/^[0-9a-f]{16}$/), alg: 'Ed25519' });
    expect(Buffer.from(keys[0].public_key, 'base64')).toHaveLength(32);
    const item = await published('hello-widget', { id: uniqueSlug('keyed') });
    expect(item.versions[0].key_id).toBe(keys[0].key_id);
  });
});

describe('roles', () => {
  it('a shop (the default role) does not serve the marketplace', async () => {
    const shop = await anotherApp(t, {});
    try {
      for (const url of ['/store/marketplace/feed', '/store/marketplace/keys', '/admin/marketplace/items']) {
        const res = await shop.inject({ method: 'GET', url, headers: { authorization: `Bearer ${t.adminToken}` } });
        expect(res.statusCode, url).toBe(404);
      }
    } finally {
      await shop.close();
    }
  });

  it('documents every marketplace route in the OpenAPI document', async () => {
    const doc = (await get('/openapi.json')).json();
    const documented = new Set(
      Object.entries(doc.paths as Record<string, object>).flatMap(([p, ops]) =>
        Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`),
      ),
    );
    const routes = t.app.routeTable
      .filter((r) => r.url.includes('/marketplace') && r.method !== 'HEAD')
      .map((r) => `${r.method} ${r.url.replace(/:([A-Za-z_]+)/g, '{$1}').replace(/\*$/, '{*}')}`);
    expect(routes.length).toBeGreaterThanOrEqual(11);
    expect(routes.filter((r) => !documented.has(r))).toEqual([]);
  });
});
