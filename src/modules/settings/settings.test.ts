import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { inTx } from '../../platform/context.ts';
import { getSetting, setSetting } from './service.ts';
import { settings } from './tables.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

// Tests share one database: each writes keys of its own.
let seq = 0;
const uniqueKey = (name: string) => `t${++seq}.${name}`;

async function put(key: string, value: string) {
  const res = await t.admin('POST', '/admin/settings', { key, value });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().setting;
}

describe('POST /admin/settings (upsert) and reading', () => {
  it('creates, then replaces, the value of a key', async () => {
    const key = uniqueKey('store.name');
    const created = await put(key, 'Linen & Co');
    expect(created).toEqual({ key, value: 'Linen & Co', updated_at: t.clock.now().toISOString() });

    t.clock.advance(60_000);
    const replaced = await put(key, 'Linen and Company');
    expect(replaced).toEqual({ key, value: 'Linen and Company', updated_at: t.clock.now().toISOString() });

    const got = await t.admin('GET', `/admin/settings/${key}`);
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual({ setting: replaced });
    const listed = (await t.admin('GET', '/admin/settings'))
      .json()
      .settings.filter((s: { key: string }) => s.key === key);
    expect(listed).toEqual([replaced]);
  });

  it('records who wrote the value', async () => {
    const key = uniqueKey('audited');
    await put(key, 'x');
    const [row] = await t.database.db.select().from(settings).where(eq(settings.key, key));
    expect(row.updated_by).toMatch(/^user_/);
  });

  it('accepts an empty value, the longest key, and exactly 64 KiB', async () => {
    expect((await put(uniqueKey('empty'), '')).value).toBe('');
    const longKey = `k${'a'.repeat(99)}`;
    expect((await put(longKey, 'v')).key).toBe(longKey);
    const big = await put(uniqueKey('big'), 'é'.repeat(32 * 1024));
    expect(big.value).toHaveLength(32 * 1024);
  });

  it('lists every row ordered by key', async () => {
    const prefix = uniqueKey('order');
    for (const suffix of ['b', 'a', 'c-1', 'c.0']) await put(`${prefix}.${suffix}`, suffix);
    const res = await t.admin('GET', '/admin/settings');
    expect(res.statusCode).toBe(200);
    const keys: string[] = res.json().settings.map((s: { key: string }) => s.key);
    expect(keys.filter((k) => k.startsWith(`${prefix}.`))).toEqual([
      `${prefix}.a`,
      `${prefix}.b`,
      `${prefix}.c-1`,
      `${prefix}.c.0`,
    ]);
    expect(keys).toEqual([...keys].sort());
    expect(Object.keys(res.json())).toEqual(['settings']);
  });

  it('404s an unknown key', async () => {
    const res = await t.admin('GET', '/admin/settings/no.such.key');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      type: 'not_found',
      code: 'setting_not_found',
      message: 'Setting with key: no.such.key not found',
    });
  });
});

describe('validation', () => {
  it('rejects malformed keys with 400 invalid_data naming key', async () => {
    for (const key of [
      '',
      'Upper',
      '_leading',
      '.leading',
      'has space',
      'slash/key',
      'ünïcode',
      `k${'a'.repeat(100)}`,
    ]) {
      const res = await t.admin('POST', '/admin/settings', { key, value: 'v' });
      expect(res.statusCode, key).toBe(400);
      expect(res.json().type).toBe('invalid_data');
      expect(res.json().message, key).toContain("'key'");
    }
  });

  it('rejects a value above 64 KiB, counted in characters and in UTF-8 bytes', async () => {
    const chars = await t.admin('POST', '/admin/settings', {
      key: uniqueKey('huge'),
      value: 'a'.repeat(64 * 1024 + 1),
    });
    expect(chars.statusCode).toBe(400);
    expect(chars.json().message).toContain("'value'");
    const bytes = await t.admin('POST', '/admin/settings', {
      key: uniqueKey('huge'),
      value: 'é'.repeat(32 * 1024 + 1),
    });
    expect(bytes.statusCode).toBe(400);
    expect(bytes.json()).toMatchObject({ type: 'invalid_data', message: expect.stringContaining("'value'") });
  });

  it('rejects missing fields, wrong types and unknown fields', async () => {
    const cases: [unknown, string][] = [
      [{ value: 'v' }, "Field 'key' is required"],
      [{ key: uniqueKey('x') }, "Field 'value' is required"],
      [{ key: uniqueKey('x'), value: 5 }, "'value'"],
      [{ key: 7, value: 'v' }, "'key'"],
      [{ key: uniqueKey('x'), value: null }, "'value'"],
      [{ key: uniqueKey('x'), value: 'v', scope: 'global' }, "Unrecognized fields: 'scope'"],
    ];
    for (const [body, message] of cases) {
      const res = await t.admin('POST', '/admin/settings', body as object);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ type: 'invalid_data', message: expect.stringContaining(message) });
    }
    const malformed = await t.inject({
      method: 'POST',
      url: '/admin/settings',
      payload: '{"key": ',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${t.adminToken}` },
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().type).toBe('invalid_data');
  });
});

describe('DELETE /admin/settings/{key}', () => {
  it('deletes, then the key is gone (GET and a second DELETE 404)', async () => {
    const key = uniqueKey('gone');
    await put(key, 'v');
    const res = await t.admin('DELETE', `/admin/settings/${key}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: key, object: 'setting', deleted: true });
    expect((await t.admin('GET', `/admin/settings/${key}`)).statusCode).toBe(404);
    const again = await t.admin('DELETE', `/admin/settings/${key}`);
    expect(again.statusCode).toBe(404);
    expect(again.json().type).toBe('not_found');
  });
});

describe('access', () => {
  it('needs a token (401); a viewer reads (200) but cannot write or delete (403)', async () => {
    const key = uniqueKey('guarded');
    await put(key, 'original');
    for (const [method, url, body] of [
      ['GET', '/admin/settings', undefined],
      ['GET', `/admin/settings/${key}`, undefined],
      ['POST', '/admin/settings', { key, value: 'x' }],
      ['DELETE', `/admin/settings/${key}`, undefined],
    ] as const) {
      const res = await t.inject({ method, url, payload: body });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expect(res.json()).toEqual({ type: 'unauthorized', code: 'unauthorized', message: 'Unauthorized' });
    }
    expect((await t.admin('GET', '/admin/settings', undefined, { token: t.viewerToken })).statusCode).toBe(200);
    expect((await t.admin('GET', `/admin/settings/${key}`, undefined, { token: t.viewerToken })).statusCode).toBe(200);
    const write = await t.admin('POST', '/admin/settings', { key, value: 'viewer' }, { token: t.viewerToken });
    expect(write.statusCode).toBe(403);
    expect(write.json().type).toBe('forbidden');
    expect((await t.admin('DELETE', `/admin/settings/${key}`, undefined, { token: t.viewerToken })).statusCode).toBe(
      403,
    );
    expect((await t.admin('GET', `/admin/settings/${key}`)).json().setting.value).toBe('original');
  });
});

describe('getSetting / setSetting for other modules', () => {
  it('reads null for an absent key and sees values written over HTTP or by setSetting', async () => {
    const key = uniqueKey('internal');
    expect(await getSetting(t.ctx, key)).toBeNull();
    await put(key, 'from http');
    expect(await getSetting(t.ctx, key)).toBe('from http');
    const saved = await setSetting(t.ctx, key, 'from code');
    expect(saved).toEqual({ key, value: 'from code', updated_at: t.clock.now() });
    expect((await t.admin('GET', `/admin/settings/${key}`)).json().setting.value).toBe('from code');
  });

  it('validates the key in setSetting too, and follows the caller transaction', async () => {
    await expect(setSetting(t.ctx, 'Bad Key', 'v')).rejects.toMatchObject({ type: 'invalid_data' });
    const key = uniqueKey('tx');
    await expect(
      inTx(t.ctx, async (tctx) => {
        await setSetting(tctx, key, 'doomed');
        expect(await getSetting(tctx, key)).toBe('doomed');
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await getSetting(t.ctx, key)).toBeNull();
  });
});
