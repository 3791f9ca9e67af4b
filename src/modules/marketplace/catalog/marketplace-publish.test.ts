import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../../test/app.ts';
import { rawTarball, manifestJson } from '../../../plugin-package/plugin-package.testing.ts';
import { MARKETPLACE_ENV, packExample, publish, uniqueSlug } from '../marketplace.testing.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: MARKETPLACE_ENV });
});
afterAll(() => t.close());

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('POST /admin/marketplace/items (publish)', () => {
  it('creates the item on the first version and appends later ones', async () => {
    const id = uniqueSlug('notes');
    const v1 = await packExample('order-notes', { id });
    const first = await publish(t, v1, { changelog_url: 'https://acme.example/notes/1.0.0' });
    expect(first.statusCode, first.body).toBe(200);
    const item = first.json().item;
    expect(item).toMatchObject({
      id: expect.stringMatching(/^mpi_/),
      marketplace_id: `@acme/${id}`,
      vendor: 'acme',
      name: 'Order notes',
      type: 'integration',
      description: 'Keeps a note for every placed order and lists them in the admin API.',
      price_eur: 0,
      changelog_url: 'https://acme.example/notes/1.0.0',
      published: true,
      unpublished_at: null,
      version: '1.0.0',
      sha256: sha(v1),
      created_at: t.clock.now().toISOString(),
    });
    expect(item.versions).toHaveLength(1);
    expect(item.versions[0]).toMatchObject({
      version: '1.0.0',
      sha256: sha(v1),
      size: v1.length,
      key_id: expect.stringMatching(/^[0-9a-f]{16}$/),
    });
    expect(Buffer.from(item.versions[0].signature, 'base64')).toHaveLength(64);
    expect(item.versions[0].manifest).toMatchObject({ id, vendor: 'acme', version: '1.0.0', engine: '>=0.1.0 <1' });

    t.clock.advance(60_000);
    const v2 = await packExample('order-notes', { id, version: '1.1.0', name: 'Order notes 2' });
    const second = await publish(t, v2, { price_eur: '4.50' });
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().item).toMatchObject({
      id: item.id,
      version: '1.1.0',
      name: 'Order notes 2',
      price_eur: 4.5,
      sha256: sha(v2),
    });
    expect(second.json().item.versions.map((v: { version: string }) => v.version)).toEqual(['1.1.0', '1.0.0']);

    // An older version published later is appended but does not become the newest.
    const old = await publish(t, await packExample('order-notes', { id, version: '1.0.5', name: 'Old name' }));
    expect(old.statusCode, old.body).toBe(200);
    expect(old.json().item).toMatchObject({ version: '1.1.0', name: 'Order notes 2' });
    expect(old.json().item.versions.map((v: { version: string }) => v.version)).toEqual(['1.1.0', '1.0.5', '1.0.0']);
  });

  it('answers 409 for a version that exists, numerically too (1.0 is 1.0.0)', async () => {
    const id = uniqueSlug('dup');
    expect((await publish(t, await packExample('hello-widget', { id }))).statusCode).toBe(200);
    const again = await publish(t, await packExample('hello-widget', { id, description: 'other bytes' }));
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      type: 'conflict',
      code: 'marketplace_version_exists',
      message: `Version 1.0.0 of @acme/${id} already exists`,
    });
    const short = await publish(t, await packExample('hello-widget', { id, version: '1.0' }));
    expect(short.statusCode).toBe(409);
    expect(short.json().message).toBe(`Version 1.0 of @acme/${id} already exists (as 1.0.0)`);
  });

  it('refuses a new version that changes the type', async () => {
    const id = uniqueSlug('typed');
    expect((await publish(t, await packExample('hello-widget', { id }))).statusCode).toBe(200);
    const res = await publish(t, await packExample('order-notes', { id, version: '2.0.0' }));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('cannot change its type to integration');
  });

  it.each([
    [
      'an invalid manifest',
      () => rawTarball([{ name: 'manifest.json', data: manifestJson({ type: 'theme' }) }]),
      "field 'type' must be one of admin-extension",
    ],
    [
      'a version that is not dotted numeric',
      () => rawTarball([{ name: 'manifest.json', data: manifestJson({ version: '1.0.0-beta.1' }) }]),
      "field 'version' must be dotted numeric",
    ],
    [
      'a path traversal',
      () =>
        rawTarball([
          { name: 'manifest.json', data: manifestJson() },
          { name: '../../etc/x', data: 'x' },
        ]),
      'Path traversal in package',
    ],
    [
      'a symlink',
      () =>
        rawTarball([
          { name: 'manifest.json', data: manifestJson() },
          { name: 'l', type: 'symlink', linkname: '/etc/passwd' },
        ]),
      'is a symlink',
    ],
    ['a non-gzip file', async () => Buffer.from('{"id":"x"}'), 'not a gzip file'],
    [
      'a package/ prefix',
      () => rawTarball([{ name: 'package/manifest.json', data: manifestJson() }]),
      'manifest.json must be at the root',
    ],
  ])('answers 400 for %s', async (_what, make, message) => {
    const res = await publish(t, await make());
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ type: 'invalid_data', message: expect.stringContaining(message) });
  });

  it('answers 400 for a file above 10 MiB', async () => {
    const res = await publish(t, Buffer.concat([Buffer.from([0x1f, 0x8b]), Buffer.alloc(10 * 1024 * 1024 + 10)]));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      type: 'invalid_data',
      code: 'marketplace_package_too_large',
      message: 'Package is larger than 10 MiB compressed',
    });
  });

  it('answers 400 for a missing file, a second file, unknown fields, bad fields and a JSON body', async () => {
    const bytes = await packExample('hello-widget', { id: uniqueSlug('fields') });
    const cases: [() => Promise<{ statusCode: number; json(): { message: string } }>, string][] = [
      [() => publish(t, null, { price_eur: '1' }), "Field 'file' is required"],
      [() => publish(t, bytes, {}, { fileField: 'package' }), "the package goes in the field 'file'"],
      [() => publish(t, bytes, { colour: 'red' }), "Unrecognized fields: 'colour'"],
      [() => publish(t, bytes, { price_eur: '-1' }), "Field 'price_eur'"],
      [() => publish(t, bytes, { price_eur: '1.999' }), "Field 'price_eur'"],
      [() => publish(t, bytes, { price_eur: 'free' }), "Field 'price_eur'"],
      [() => publish(t, bytes, { changelog_url: 'ftp://x.example/c' }), "Field 'changelog_url'"],
      [() => t.admin('POST', '/admin/marketplace/items', { file: 'x' }), 'multipart/form-data'],
    ];
    for (const [send, message] of cases) {
      const res = await send();
      expect(res.statusCode, message).toBe(400);
      expect(res.json().message).toContain(message);
    }
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)]), 'a.tgz');
    form.append('file', new Blob([new Uint8Array(bytes)]), 'b.tgz');
    const two = await t.inject({
      method: 'POST',
      url: '/admin/marketplace/items',
      headers: { authorization: `Bearer ${t.adminToken}` },
      payload: form,
    });
    expect(two.statusCode).toBe(400);
    expect(two.json().message).toContain('exactly one file');
  });

  it('requires an admin: no token 401, viewer 403', async () => {
    const bytes = await packExample('hello-widget', { id: uniqueSlug('auth') });
    const anonymous = await t.inject({ method: 'POST', url: '/admin/marketplace/items', payload: new FormData() });
    expect(anonymous.statusCode).toBe(401);
    const viewer = await publish(t, bytes, {}, { token: t.viewerToken });
    expect(viewer.statusCode).toBe(403);
    expect((await t.admin('GET', '/admin/marketplace/items', undefined, { token: t.viewerToken })).statusCode).toBe(
      200,
    );
  });
});

describe('vendor catalog management', () => {
  it('lists, reads, updates and unpublishes items', async () => {
    const id = uniqueSlug('manage');
    const created = (await publish(t, await packExample('loyalty-points', { id }), { price_eur: '29' })).json().item;
    expect(created.price_eur).toBe(29);

    const got = await t.admin('GET', `/admin/marketplace/items/${created.id}`);
    expect(got.statusCode).toBe(200);
    expect(got.json().item).toEqual(created);

    t.clock.advance(1000);
    for (const method of ['POST', 'PATCH']) {
      const res = await t.admin(method, `/admin/marketplace/items/${created.id}`, {
        price_eur: 19.99,
        description: `Edited by ${method}`,
        changelog_url: 'https://acme.example/cl',
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().item).toMatchObject({
        price_eur: 19.99,
        description: `Edited by ${method}`,
        changelog_url: 'https://acme.example/cl',
        updated_at: t.clock.now().toISOString(),
      });
    }
    const cleared = await t.admin('POST', `/admin/marketplace/items/${created.id}`, {
      changelog_url: null,
      price_eur: 0,
    });
    expect(cleared.json().item).toMatchObject({ changelog_url: null, price_eur: 0 });

    const listed = await t.admin('GET', `/admin/marketplace/items?q=${id}`);
    expect(listed.json()).toMatchObject({ count: 1, limit: 20, offset: 0 });
    expect(listed.json().items[0].id).toBe(created.id);

    const unpublished = await t.admin('POST', `/admin/marketplace/items/${created.id}/unpublish`);
    expect(unpublished.statusCode).toBe(200);
    expect(unpublished.json().item).toMatchObject({ published: false, unpublished_at: t.clock.now().toISOString() });
    // Still visible to the vendor; republished by a new version.
    expect((await t.admin('GET', `/admin/marketplace/items?q=${id}`)).json().count).toBe(1);
    const republished = await publish(t, await packExample('loyalty-points', { id, version: '1.0.1' }));
    expect(republished.json().item).toMatchObject({ published: true, unpublished_at: null, version: '1.0.1' });
  });

  it('validates updates and 404s unknown items', async () => {
    const id = (await publish(t, await packExample('hello-widget', { id: uniqueSlug('upd') }))).json().item.id;
    const cases: [unknown, string][] = [
      [{ price_eur: -1 }, "'price_eur'"],
      [{ price_eur: '5' }, "'price_eur'"],
      [{ price_eur: 1.234 }, "Field 'price_eur'"],
      [{ changelog_url: 'not a url' }, "Field 'changelog_url'"],
      [{ name: 'x' }, "Unrecognized fields: 'name'"],
    ];
    for (const [body, message] of cases) {
      const res = await t.admin('POST', `/admin/marketplace/items/${id}`, body as object);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toContain(message);
    }
    for (const [method, url] of [
      ['GET', '/admin/marketplace/items/mpi_missing'],
      ['POST', '/admin/marketplace/items/mpi_missing'],
      ['POST', '/admin/marketplace/items/mpi_missing/unpublish'],
    ]) {
      const res = await t.admin(
        method,
        url,
        method === 'POST' && !url.endsWith('unpublish') ? { price_eur: 1 } : undefined,
      );
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toEqual({
        type: 'not_found',
        code: 'marketplace_item_id_not_found',
        message: 'Marketplace item with id: mpi_missing was not found',
      });
    }
  });

  it('pages the vendor list: limit 0, offset past the end, limit clamped to 1000', async () => {
    for (let i = 0; i < 3; i++) await publish(t, await packExample('hello-widget', { id: uniqueSlug('page') }));
    const all = (await t.admin('GET', '/admin/marketplace/items?q=page-')).json();
    expect(all.count).toBe(3);
    expect((await t.admin('GET', '/admin/marketplace/items?q=page-&limit=0')).json()).toMatchObject({
      items: [],
      count: 3,
      limit: 0,
    });
    expect((await t.admin('GET', '/admin/marketplace/items?q=page-&offset=10')).json()).toMatchObject({
      items: [],
      count: 3,
      offset: 10,
    });
    expect((await t.admin('GET', '/admin/marketplace/items?q=page-&limit=5000')).json().limit).toBe(1000);
    const second = (await t.admin('GET', '/admin/marketplace/items?q=page-&limit=1&offset=1')).json();
    expect(second.items.map((i: { id: string }) => i.id)).toEqual([all.items[1].id]);
    expect((await t.admin('GET', '/admin/marketplace/items?type=theme')).statusCode).toBe(400);
  });
});
