import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../src/platform/db/database.ts';
import { installAndWait, packPlugin, pluginSlug, shopEnv } from '../src/modules/plugins/plugins.testing.ts';
import { startTestApp, type TestApp } from './app.ts';

/**
 * Input PostgreSQL refuses (a NUL character) or that overflows the stack (deep nesting) is a
 * 400 at the boundary on every route, plugin routes included, and writes nothing.
 */
let t: TestApp;
let env: Record<string, string>;
let pluginId: string;
beforeAll(async () => {
  env = shopEnv(null);
  t = await startTestApp({ env });
  pluginId = pluginSlug('notes');
  const server = `export default { register(ctx) {
    ctx.routes.store('POST', '/notes', async (req) => {
      await ctx.db.query('insert into notes (body) values ($1)', [JSON.stringify(req.body)]);
      return { saved: true };
    });
    ctx.routes.store('GET', '/notes/:key', async (req) =>
      ({ rows: await ctx.db.query('select body from notes where body = $1 or body = $2', [req.params.key, String(req.query.q ?? '')]) }));
  } };`;
  writeFileSync(
    path.join(env.PLUGINS_DIR, `${pluginId}.tgz`),
    await packPlugin(
      { id: pluginId, server: 'server/index.js', migrations: 'migrations' },
      { 'server/index.js': server, 'migrations/0001_notes.sql': 'create table notes (body text not null);' },
    ),
  );
  expect((await installAndWait(t, `@tests/${pluginId}`)).status).toBe('installed');
});
afterAll(() => t?.close());

const productCount = async () =>
  (await rows<{ n: number }>(t.database.db, sql`select count(*)::int as n from products`))[0].n;

function expectBadInput(res: { statusCode: number; json(): unknown }) {
  expect(res.statusCode).toBe(400);
  // `code` is there once the raising module has moved to error codes.
  const { code: _code, ...body } = res.json() as Record<string, unknown>;
  expect(body).toEqual({ type: 'invalid_data', message: expect.any(String) });
}

function nested(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

describe('NUL characters are refused at the boundary', () => {
  it('in a path parameter', async () => {
    expectBadInput(await t.admin('GET', '/admin/products/prod_%00x'));
    expectBadInput(await t.store('GET', '/store/products/prod_%00x'));
    expectBadInput(await t.store('GET', '/store/regions/reg%00'));
  });

  it('in a query string', async () => {
    expectBadInput(await t.store('GET', '/store/products?q=lin%00en'));
    expectBadInput(await t.admin('GET', '/admin/customers?q=%00'));
    expectBadInput(await t.admin('GET', '/admin/orders?id[]=a%00'));
  });

  it('in a body string or a JSON key, with nothing written', async () => {
    const before = await productCount();
    expectBadInput(await t.admin('POST', '/admin/products', { title: 'Shirt\u0000', status: 'draft' }));
    expectBadInput(
      await t.admin('POST', '/admin/products', { title: 'Shirt', status: 'draft', metadata: { 'k\u0000': 1 } }),
    );
    expectBadInput(
      await t.inject({ method: 'POST', url: '/auth/user/emailpass', payload: { email: 'a@b.c', password: '\u0000' } }),
    );
    expect(await productCount()).toBe(before);
  });

  it('on plugin routes (the catch-all)', async () => {
    expectBadInput(await t.store('POST', `/store/plugins/${pluginId}/notes`, { note: 'a\u0000b' }));
    expectBadInput(await t.store('GET', `/store/plugins/${pluginId}/notes/x%00`));
    expectBadInput(await t.store('GET', `/store/plugins/${pluginId}/notes/x?q=%00`));
    expect((await t.store('POST', `/store/plugins/${pluginId}/notes`, { note: 'fine' })).statusCode).toBe(200);
  });
});

describe('absurd nesting is refused at the boundary', () => {
  it('a body nested thousands of levels deep is a 400, not a stack overflow', async () => {
    const before = await productCount();
    for (const depth of [5_000, 100_000]) {
      const res = await t.inject({
        method: 'POST',
        url: '/admin/products',
        headers: { authorization: `Bearer ${t.adminToken}`, 'content-type': 'application/json' },
        payload: `{"title":"Deep","status":"draft","metadata":${nested(depth)}}`,
      });
      expectBadInput(res);
    }
    const plugin = await t.inject({
      method: 'POST',
      url: `/store/plugins/${pluginId}/notes`,
      headers: { 'x-publishable-api-key': t.publishableKey, 'content-type': 'application/json' },
      payload: nested(5_000),
    });
    expectBadInput(plugin);
    expect(await productCount()).toBe(before);
  });

  it('ordinary nesting still passes', async () => {
    const res = await t.admin('POST', '/admin/products', {
      title: 'Nested metadata',
      status: 'draft',
      metadata: JSON.parse(nested(20)),
    });
    expect(res.statusCode, res.body).toBe(200);
  });
});
