import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { hashToken } from './lookup.ts';
import { apiKeys } from './tables.ts';

let t: TestApp;
let adminId: string;
beforeAll(async () => {
  t = await startTestApp();
  adminId = (await t.admin('GET', '/admin/users/me')).json().user.id;
});
afterAll(() => t.close());

// Tests share one database: each titles its keys with a unique token and filters lists by it.
let seq = 0;
const token = () => `aktok${++seq}x${Date.now().toString(36)}`;

async function createKey(title: string, type: 'publishable' | 'secret' = 'publishable', opts: { token?: string } = {}) {
  const res = await t.admin('POST', '/admin/api-keys', { title, type }, opts);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().api_key;
}

async function createChannel(name: string) {
  return (await t.admin('POST', '/admin/sales-channels', { name })).json().sales_channel;
}

const revoke = (id: string, body: Record<string, unknown> = {}, opts = {}) =>
  t.admin('POST', `/admin/api-keys/${id}/revoke`, body, opts);
const basic = (secret: string) => ({ authorization: `Basic ${Buffer.from(`${secret}:`).toString('base64')}` });

describe('api keys: create and read', () => {
  it('creates a publishable key in Medusa shape', async () => {
    const key = await createKey('Storefront');
    expect(key.id).toMatch(/^apk_[0-9A-Z]{26}$/);
    expect(key.token).toMatch(/^pk_[0-9a-f]{64}$/);
    const now = t.clock.now().toISOString();
    expect(key).toEqual({
      id: key.id,
      title: 'Storefront',
      token: key.token,
      redacted: expect.stringMatching(/^pk_\w+\*\*\*\w{4}$/),
      type: 'publishable',
      last_used_at: null,
      created_by: adminId,
      revoked_at: null,
      revoked_by: null,
      created_at: now,
      updated_at: now,
      sales_channels: [],
    });
    expect((await t.admin('GET', `/admin/api-keys/${key.id}`)).json()).toEqual({ api_key: key });
  });

  it('shows a secret token only in the create response and stores only its hash', async () => {
    const key = await createKey('Backend', 'secret');
    expect(key.token).toMatch(/^sk_[0-9a-f]{64}$/);
    expect(key.redacted).not.toContain(key.token.slice(7, -4));
    const got = (await t.admin('GET', `/admin/api-keys/${key.id}`)).json().api_key;
    expect(got.token).toBe(key.redacted);
    const listed = (await t.admin('GET', `/admin/api-keys?id=${key.id}`)).json().api_keys[0];
    expect(listed.token).toBe(key.redacted);
    const [row] = await t.database.db.select().from(apiKeys).where(eq(apiKeys.id, key.id));
    expect(row.token).toBeNull();
    expect(row.token_hash).toBe(hashToken(key.token));
  });

  it.each([
    [{ type: 'publishable' }, "Field 'title' is required"],
    [{ title: 'x' }, "Field 'type' is required"],
    [{ title: 'x', type: 'other' }, "Invalid value for field 'type'"],
    [{ title: 'x', type: 'secret', token: 'sk_mine' }, "Unrecognized fields: 'token'"],
    [{ title: 7, type: 'publishable' }, "Expected type: 'string' for field 'title'"],
    [{ title: '', type: 'publishable' }, 'title'],
  ])('rejects the create body %j', async (body, message) => {
    const res = await t.admin('POST', '/admin/api-keys', body);
    expect(res.statusCode).toBe(400);
    expect(res.json().type).toBe('invalid_data');
    expect(res.json().message).toContain(message);
  });

  it('404s an unknown key', async () => {
    const res = await t.admin('GET', '/admin/api-keys/apk_nope');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      type: 'not_found',
      code: 'api_key_not_found',
      message: 'API key with id: apk_nope not found',
    });
  });

  it('renames by POST and PATCH, and validates the update', async () => {
    const key = await createKey('Old');
    t.clock.advance(1000);
    const post = await t.admin('POST', `/admin/api-keys/${key.id}`, { title: 'New' });
    expect(post.statusCode).toBe(200);
    expect(post.json().api_key).toEqual({ ...key, title: 'New', updated_at: t.clock.now().toISOString() });
    const patch = await t.admin('PATCH', `/admin/api-keys/${key.id}`, { title: 'Newer' });
    expect(patch.json().api_key.title).toBe('Newer');
    expect((await t.admin('PATCH', `/admin/api-keys/${key.id}`, {})).statusCode).toBe(400);
    expect((await t.admin('PATCH', `/admin/api-keys/${key.id}`, { title: 'x', type: 'secret' })).statusCode).toBe(400);
    expect((await t.admin('POST', '/admin/api-keys/apk_nope', { title: 'x' })).statusCode).toBe(404);
  });
});

describe('api keys: listing', () => {
  it('filters by type, q, title and token (either form), with default limit 20', async () => {
    const tok = token();
    const pub = await createKey(`${tok} pub`);
    const sec = await createKey(`${tok} sec`, 'secret');
    const ids = (url: string) => t.admin('GET', url).then((r) => r.json().api_keys.map((k: { id: string }) => k.id));
    const all = await t.admin('GET', `/admin/api-keys?q=${tok.toUpperCase()}`);
    expect(all.json()).toMatchObject({ count: 2, limit: 20, offset: 0 });
    expect(await ids(`/admin/api-keys?q=${tok}&type=secret`)).toEqual([sec.id]);
    expect(await ids(`/admin/api-keys?q=${tok}&type=publishable`)).toEqual([pub.id]);
    expect(await ids(`/admin/api-keys?title=${encodeURIComponent(`${tok} sec`)}`)).toEqual([sec.id]);
    expect(await ids(`/admin/api-keys?token=${pub.token}`)).toEqual([pub.id]);
    expect(await ids(`/admin/api-keys?token=${sec.token}`)).toEqual([sec.id]);
    expect((await t.admin('GET', '/admin/api-keys?type=other')).statusCode).toBe(400);
  });

  it('filters by revocation time', async () => {
    const tok = token();
    const live = await createKey(`${tok} live`);
    const gone = await createKey(`${tok} gone`);
    await revoke(gone.id);
    const since = encodeURIComponent(new Date(t.clock.now().getTime() - 1000).toISOString());
    const res = await t.admin('GET', `/admin/api-keys?q=${tok}&revoked_at[$gte]=${since}`);
    expect(res.json().api_keys.map((k: { id: string }) => k.id)).toEqual([gone.id]);
    expect(live.revoked_at).toBeNull();
    expect((await t.admin('GET', `/admin/api-keys?q=${tok}&revoked_at[$lt]=${since}`)).json().count).toBe(0);
    expect((await t.admin('GET', '/admin/api-keys?revoked_at[$gt]=yesterday')).statusCode).toBe(400);
    expect((await t.admin('GET', `/admin/api-keys?revoked_at[$after]=${since}`)).statusCode).toBe(400);
  });

  it('handles pagination edges', async () => {
    const tok = token();
    const made = [await createKey(`${tok} 0`), await createKey(`${tok} 1`), await createKey(`${tok} 2`)];
    expect((await t.admin('GET', `/admin/api-keys?q=${tok}&limit=2`)).json()).toEqual({
      api_keys: made.slice(0, 2),
      count: 3,
      limit: 2,
      offset: 0,
    });
    expect((await t.admin('GET', `/admin/api-keys?q=${tok}&limit=0`)).json()).toEqual({
      api_keys: [],
      count: 3,
      limit: 0,
      offset: 0,
    });
    expect((await t.admin('GET', `/admin/api-keys?q=${tok}&offset=3`)).json()).toEqual({
      api_keys: [],
      count: 3,
      limit: 20,
      offset: 3,
    });
    expect((await t.admin('GET', `/admin/api-keys?q=${tok}&limit=1001`)).json().limit).toBe(1000);
    expect((await t.admin('GET', '/admin/api-keys?limit=x')).statusCode).toBe(400);
  });

  it('lists each key with its own live channels', async () => {
    const tok = token();
    const [a, b] = [await createKey(`${tok} a`), await createKey(`${tok} b`)];
    const [c1, c2] = [await createChannel(`${tok} c1`), await createChannel(`${tok} c2`)];
    await t.admin('POST', `/admin/api-keys/${a.id}/sales-channels`, { add: [c1.id, c2.id] });
    await t.admin('POST', `/admin/api-keys/${b.id}/sales-channels`, { add: [c2.id] });
    const list = (await t.admin('GET', `/admin/api-keys?q=${tok}`)).json().api_keys;
    expect(list[0].sales_channels).toEqual([
      { id: c1.id, name: c1.name },
      { id: c2.id, name: c2.name },
    ]);
    expect(list[1].sales_channels).toEqual([{ id: c2.id, name: c2.name }]);
  });

  it('serves the spec route with publishable keys only, revoked ones included', async () => {
    const tok = token();
    const pub = await createKey(`${tok} pub`);
    const old = await createKey(`${tok} old`);
    await createKey(`${tok} sec`, 'secret');
    const revoked = (await revoke(old.id)).json().api_key;
    const res = await t.admin('GET', `/admin/publishable-api-keys?q=${tok}`);
    expect(res.statusCode).toBe(200);
    const pick = (k: typeof pub) => ({
      id: k.id,
      title: k.title,
      token: k.token,
      revoked_at: k.revoked_at,
      sales_channels: k.sales_channels,
    });
    expect(res.json()).toEqual({ publishable_api_keys: [pick(pub), pick(revoked)], count: 2, limit: 20, offset: 0 });
    const all = (await t.admin('GET', '/admin/publishable-api-keys?limit=1000')).json().publishable_api_keys;
    expect(all.map((k: { token: string }) => k.token)).toContain(t.publishableKey);
    expect(
      (await t.admin('GET', `/admin/publishable-api-keys?q=${tok}&limit=1&offset=1`)).json().publishable_api_keys,
    ).toEqual([pick(revoked)]);
  });
});

describe('api keys: revoke and delete', () => {
  it('revokes now, recording who', async () => {
    const key = await createKey('To revoke');
    const res = await revoke(key.id);
    expect(res.statusCode).toBe(200);
    expect(res.json().api_key).toMatchObject({
      id: key.id,
      revoked_at: t.clock.now().toISOString(),
      revoked_by: adminId,
    });
    const again = await revoke(key.id);
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe(`API key with id: ${key.id} is already revoked`);
  });

  it('revokes in revoke_in seconds, and a scheduled revocation can be brought forward', async () => {
    const key = await createKey('Later');
    const res = await revoke(key.id, { revoke_in: 90 });
    expect(res.json().api_key.revoked_at).toBe(new Date(t.clock.now().getTime() + 90_000).toISOString());
    const sooner = await revoke(key.id, { revoke_in: 0 });
    expect(sooner.json().api_key.revoked_at).toBe(t.clock.now().toISOString());
  });

  it('accepts an empty revoke body and validates revoke_in', async () => {
    const key = await createKey('Empty body');
    for (const body of [{ revoke_in: -1 }, { revoke_in: 'soon' }, { when: 1 }]) {
      expect((await revoke(key.id, body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    const empty = await t.inject({
      method: 'POST',
      url: `/admin/api-keys/${key.id}/revoke`,
      headers: { authorization: `Bearer ${t.adminToken}`, 'content-type': 'application/json' },
    });
    expect(empty.statusCode, empty.body).toBe(200);
    const other = await createKey('No body');
    const bare = await t.inject({
      method: 'POST',
      url: `/admin/api-keys/${other.id}/revoke`,
      headers: { authorization: `Bearer ${t.adminToken}` },
    });
    expect(bare.statusCode, bare.body).toBe(200);
    expect((await revoke('apk_nope')).statusCode).toBe(404);
  });

  it('deletes only revoked keys, then 404s them', async () => {
    const key = await createKey('Delete me');
    const early = await t.admin('DELETE', `/admin/api-keys/${key.id}`);
    expect(early.statusCode).toBe(400);
    expect(early.json()).toEqual({
      type: 'not_allowed',
      code: 'api_key_not_revoked',
      message: `Cannot delete api keys that are not revoked - ${key.id}`,
    });
    await revoke(key.id, { revoke_in: 60 });
    expect((await t.admin('DELETE', `/admin/api-keys/${key.id}`)).statusCode).toBe(400);
    t.clock.advance(61_000);
    const res = await t.admin('DELETE', `/admin/api-keys/${key.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: key.id, object: 'api_key', deleted: true });
    expect((await t.admin('GET', `/admin/api-keys/${key.id}`)).statusCode).toBe(404);
    expect((await t.admin('GET', `/admin/api-keys?id=${key.id}`)).json().count).toBe(0);
    expect((await t.admin('DELETE', `/admin/api-keys/${key.id}`)).statusCode).toBe(404);
    expect((await revoke(key.id)).statusCode).toBe(404);
  });
});

describe('api keys: sales channels', () => {
  it('links and unlinks channels of a publishable key', async () => {
    const key = await createKey('Linked');
    const [c1, c2] = [await createChannel('L1'), await createChannel('L2')];
    const add = await t.admin('POST', `/admin/api-keys/${key.id}/sales-channels`, { add: [c2.id, c1.id, c1.id] });
    expect(add.statusCode).toBe(200);
    expect(add.json().api_key.sales_channels).toEqual([
      { id: c1.id, name: 'L1' },
      { id: c2.id, name: 'L2' },
    ]);
    const rm = await t.admin('POST', `/admin/api-keys/${key.id}/sales-channels`, { remove: [c1.id] });
    expect(rm.json().api_key.sales_channels).toEqual([{ id: c2.id, name: 'L2' }]);
    expect((await t.admin('GET', `/admin/api-keys/${key.id}`)).json().api_key.sales_channels).toEqual([
      { id: c2.id, name: 'L2' },
    ]);
  });

  it('rejects secret keys, unknown and deleted channels, and bad bodies', async () => {
    const secret = await createKey('Secret', 'secret');
    const channel = await createChannel('Target');
    const sec = await t.admin('POST', `/admin/api-keys/${secret.id}/sales-channels`, { add: [channel.id] });
    expect(sec.statusCode).toBe(400);
    expect(sec.json()).toEqual({
      type: 'invalid_data',
      code: 'api_key_not_publishable',
      message: 'Sales channels can only be associated with publishable API keys',
    });

    const key = await createKey('Public');
    const phony = await t.admin('POST', `/admin/api-keys/${key.id}/sales-channels`, { add: ['phony', channel.id] });
    expect(phony.statusCode).toBe(400);
    expect(phony.json()).toEqual({
      type: 'invalid_data',
      code: 'sales_channels_missing',
      message: 'Sales channels with IDs phony do not exist',
    });
    expect((await t.admin('GET', `/admin/api-keys/${key.id}`)).json().api_key.sales_channels).toEqual([]);

    const dropped = await createChannel('Dropped');
    await t.admin('DELETE', `/admin/sales-channels/${dropped.id}`);
    const gone = await t.admin('POST', `/admin/api-keys/${key.id}/sales-channels`, { add: [dropped.id] });
    expect(gone.json().message).toBe(`Sales channels with IDs ${dropped.id} do not exist`);
    expect((await t.admin('POST', '/admin/api-keys/apk_nope/sales-channels', { add: [channel.id] })).statusCode).toBe(
      404,
    );
    expect((await t.admin('POST', `/admin/api-keys/${key.id}/sales-channels`, { add: channel.id })).statusCode).toBe(
      400,
    );
    expect((await t.admin('POST', `/admin/api-keys/${key.id}/sales-channels`, { set: [] })).statusCode).toBe(400);
  });
});

describe('api keys: admin auth', () => {
  it('requires a token and keeps viewers read-only', async () => {
    expect((await t.inject({ method: 'GET', url: '/admin/api-keys' })).statusCode).toBe(401);
    const key = await createKey('Viewer target');
    const viewer = { token: t.viewerToken };
    expect((await t.admin('GET', '/admin/api-keys', undefined, viewer)).statusCode).toBe(200);
    expect((await t.admin('GET', '/admin/publishable-api-keys', undefined, viewer)).statusCode).toBe(200);
    const writes = [
      ['POST', '/admin/api-keys', { title: 'x', type: 'secret' }],
      ['POST', `/admin/api-keys/${key.id}`, { title: 'x' }],
      ['PATCH', `/admin/api-keys/${key.id}`, { title: 'x' }],
      ['POST', `/admin/api-keys/${key.id}/revoke`, {}],
      ['POST', `/admin/api-keys/${key.id}/sales-channels`, { add: [] }],
      ['DELETE', `/admin/api-keys/${key.id}`, undefined],
    ] as const;
    for (const [method, url, body] of writes) {
      const res = await t.admin(method, url, body, viewer);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
    expect((await t.admin('GET', `/admin/api-keys/${key.id}`)).json().api_key).toEqual(key);
  });

  it('lets a secret key act as admin over HTTP Basic until it is revoked', async () => {
    const secret = await createKey('Automation', 'secret');
    const ok = await t.inject({ method: 'GET', url: '/admin/sales-channels', headers: basic(secret.token) });
    expect(ok.statusCode).toBe(200);
    const byKey = await t.inject({
      method: 'POST',
      url: '/admin/api-keys',
      headers: basic(secret.token),
      payload: { title: 'k', type: 'publishable' },
    });
    expect(byKey.json().api_key.created_by).toBe(secret.id);
    const wrong = await t.inject({
      method: 'GET',
      url: '/admin/sales-channels',
      headers: basic(`sk_${'0'.repeat(64)}`),
    });
    expect(wrong.statusCode).toBe(401);
    await revoke(secret.id);
    const revoked = await t.inject({ method: 'GET', url: '/admin/sales-channels', headers: basic(secret.token) });
    expect(revoked.statusCode).toBe(401);
    expect(revoked.json()).toEqual({ type: 'unauthorized', code: 'unauthorized', message: 'Unauthorized' });
  });
});
