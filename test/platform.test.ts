import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../src/platform/db/database.ts';
import { inTx } from '../src/platform/context.ts';
import { startTestApp, type TestApp } from './app.ts';
import { emitLoose } from './events.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('platform', () => {
  it('GET /health answers ok with a request id', async () => {
    const res = await t.inject({ method: 'GET', url: '/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
    expect(res.headers['x-request-id']).toMatch(/^[0-9A-Z]{26}$/);
  });

  it('keeps a request id sent by the caller', async () => {
    const res = await t.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': 'abc-123' } });
    expect(res.headers['x-request-id']).toBe('abc-123');
  });

  it('answers unknown routes with a 404 in the error shape', async () => {
    const res = await t.inject({ method: 'GET', url: '/nope?x=1' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ type: 'not_found', code: 'route_not_found', message: 'Route GET /nope not found' });
  });

  it('answers a malformed URL with 400 in the error shape', async () => {
    const res = await t.inject({ method: 'GET', url: '/store/regions/%E0%A4%A' });
    expect(res.statusCode).toBe(400);
    expect(res.json().type).toBe('invalid_data');
  });

  it('answers CORS preflights only for the origins configured per surface', async () => {
    const preflight = (url: string, origin: string) =>
      t.inject({
        method: 'OPTIONS',
        url,
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'x-publishable-api-key,content-type',
        },
      });
    const ok = await preflight('/store/carts', 'http://localhost:8000');
    expect(ok.statusCode).toBe(204);
    expect(ok.headers['access-control-allow-origin']).toBe('http://localhost:8000');
    expect(ok.headers['access-control-allow-credentials']).toBe('true');
    expect(String(ok.headers['access-control-allow-headers'])).toContain('x-publishable-api-key');
    expect(
      (await preflight('/store/carts', 'https://evil.example')).headers['access-control-allow-origin'],
    ).toBeUndefined();
    // The store's origin is not the admin's.
    expect(
      (await preflight('/admin/products', 'http://localhost:8000')).headers['access-control-allow-origin'],
    ).toBeUndefined();
    const get = await t.store('GET', '/store/regions', undefined, { headers: { origin: 'http://localhost:8000' } });
    expect(get.statusCode).toBe(200);
    expect(get.headers['access-control-allow-origin']).toBe('http://localhost:8000');
  });

  it('allows every method the SDK uses from a browser, refuses a malformed preflight, and leaves other paths alone', async () => {
    const preflight = (url: string, headers: Record<string, string>) => t.inject({ method: 'OPTIONS', url, headers });
    const origin = 'http://localhost:8000';
    // sdk.store.cart.deleteLineItem sends DELETE from the shopper's browser.
    const del = await preflight('/store/carts/cart_1/line-items/item_1', {
      origin,
      'access-control-request-method': 'DELETE',
    });
    expect(del.statusCode).toBe(204);
    expect(String(del.headers['access-control-allow-methods']).split(',')).toEqual(
      expect.arrayContaining(['DELETE', 'POST', 'GET']),
    );
    expect(del.headers['access-control-max-age']).toBe('600');
    expect(del.headers.vary).toBe('Origin');
    // Strict: a preflight says which method it asks for.
    const malformed = await preflight('/store/carts', { origin });
    expect(malformed.statusCode).toBe(400);
    // No CORS outside the three surfaces, nor on the marketplace's server-to-server surface.
    for (const url of ['/health', '/store/marketplace/plugins']) {
      const res = await t.inject({ method: 'GET', url, headers: { origin } });
      expect(res.headers['access-control-allow-origin'], url).toBeUndefined();
      expect(res.headers.vary, url).toBeUndefined();
      expect((await preflight(url, { origin, 'access-control-request-method': 'GET' })).statusCode, url).toBe(404);
    }
  });

  it('rejects a JSON body that is not an object, and prototype pollution', async () => {
    const arr = await t.inject({
      method: 'POST',
      url: '/auth/user/emailpass',
      payload: '[1,2]',
      headers: { 'content-type': 'application/json' },
    });
    expect(arr.statusCode).toBe(400);
    expect(arr.json().type).toBe('invalid_data');
    const proto = await t.inject({
      method: 'POST',
      url: '/auth/user/emailpass',
      payload: '{"__proto__": {"admin": true}, "email": "a@b.c", "password": "x"}',
      headers: { 'content-type': 'application/json' },
    });
    expect(proto.statusCode).toBe(400);
    expect(proto.json().type).toBe('invalid_data');
  });

  it('rejects an unsupported content type with a 415 in the error shape', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/auth/user/emailpass',
      payload: '<email/>',
      headers: { 'content-type': 'application/xml' },
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().type).toBe('unsupported_media_type');
  });

  it('rejects an oversized body with 413', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/auth/user/emailpass',
      payload: JSON.stringify({ email: 'a'.repeat(2 * 1024 * 1024), password: 'x' }),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().type).toBe('payload_too_large');
  });

  it('serves an OpenAPI 3.1 document that covers every route', async () => {
    const res = await t.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    const documented = new Set<string>();
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
      for (const method of Object.keys(ops)) documented.add(`${method.toUpperCase()} ${path}`);
    }
    const routes = t.app.routeTable
      .filter(
        (r) => r.method !== 'HEAD' && r.method !== 'OPTIONS' && !r.url.startsWith('/docs') && r.url !== '/openapi.json',
      )
      .map((r) => `${r.method} ${r.url.replace(/:([A-Za-z_]+)/g, '{$1}').replace(/\*$/, '{*}')}`);
    expect(routes.length).toBeGreaterThan(2);
    expect(routes.filter((r) => !documented.has(r))).toEqual([]);
  });

  it('serves the human API docs at /docs', async () => {
    const res = await t.inject({ method: 'GET', url: '/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
  });
});

describe('embedded database settings', () => {
  it("opens PGlite with the small shared_buffers instead of PostgreSQL's 128MB", async () => {
    const [row] = await rows<{ shared_buffers: string }>(t.ctx.db, sql`show shared_buffers`);
    // PostgreSQL is sized by its operator; PGlite by us (PGLITE_SHARED_BUFFERS, default 8MB).
    if (process.env.DATABASE_URL) expect(row.shared_buffers).toBeTruthy();
    else expect(row.shared_buffers).toBe('8MB');
  });
});

describe('outbox', () => {
  it('writes the event in the caller transaction and drops it on rollback', async () => {
    await inTx(t.ctx, (tctx) => emitLoose(tctx, 'product.created', { id: 'prod_committed' }));
    await expect(
      inTx(t.ctx, async (tctx) => {
        await emitLoose(tctx, 'product.created', { id: 'prod_rolled_back' });
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    const events = await rows<{ name: string; payload: { id: string }; dispatched_at: Date | null }>(
      t.database.db,
      sql`select name, payload, dispatched_at from outbox where payload->>'id' like 'prod_%' order by id`,
    );
    expect(events).toEqual([{ name: 'product.created', payload: { id: 'prod_committed' }, dispatched_at: null }]);
  });
});
