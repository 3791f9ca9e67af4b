import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, VIEWER, startTestApp, type TestApp, anotherApp } from '../../../test/app.ts';
import type { App } from '../../platform/http/types.ts';
import { makeRegion } from '../checkout/checkout.testing.ts';
import { placeOrder } from '../orders/orders.testing.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const OWN = 'http://localhost:80';
const login = async (who = ADMIN, origin = OWN) => {
  const res = await t.inject({ method: 'POST', url: '/admin/panel/session', payload: who, headers: { origin } });
  const cookie = res.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  return { res, cookie, csrf: res.statusCode === 200 ? (res.json().csrf_token as string) : '' };
};
const send = (method: string, url: string, headers: Record<string, string>, payload?: object) =>
  t.inject({ method: method as 'GET', url, headers, payload });

describe('admin panel login (spec rule 4: token cookie + admin_session, turned into a Bearer)', () => {
  it('sets two HTTP-only, SameSite=Strict cookies limited to /admin and answers the user with a CSRF token', async () => {
    const { res } = await login();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      user: { email: ADMIN.email, role: 'owner' },
      instance: { role: 'shop', federated: false },
    });
    expect(res.json().csrf_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const byName = Object.fromEntries(res.cookies.map((c) => [c.name, c]));
    for (const name of ['admin_token', 'admin_session']) {
      expect(byName[name]).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/admin', maxAge: 24 * 3600 });
      expect(byName[name].secure).toBeUndefined();
    }
  });

  it('the cookies authorize /admin reads, and GET /admin/panel/session answers the same CSRF token', async () => {
    const { cookie, csrf } = await login();
    const me = await send('GET', '/admin/users/me', { cookie });
    expect(me.statusCode).toBe(200);
    expect(me.json().user.email).toBe(ADMIN.email);
    const session = await send('GET', '/admin/panel/session', { cookie });
    expect(session.json().csrf_token).toBe(csrf);
    expect((await send('GET', '/admin/panel/session', {})).statusCode).toBe(401);
  });

  it('a wrong password is the usual 401; a login posted from another site is refused', async () => {
    expect((await login({ ...ADMIN, password: 'nope' })).res.statusCode).toBe(401);
    const foreign = await login(ADMIN, 'http://evil.test');
    expect(foreign.res.statusCode).toBe(403);
    expect(foreign.res.cookies).toEqual([]);
  });

  it('one cookie alone, or a token cookie of another login, authorizes nothing', async () => {
    const a = await login();
    t.clock.advance(1000);
    const b = await login();
    const [tokenA, sessionA] = a.cookie.split('; ');
    const [, sessionB] = b.cookie.split('; ');
    expect((await send('GET', '/admin/users/me', { cookie: tokenA })).statusCode).toBe(401);
    expect((await send('GET', '/admin/users/me', { cookie: sessionA })).statusCode).toBe(401);
    expect((await send('GET', '/admin/users/me', { cookie: `${tokenA}; ${sessionB}` })).statusCode).toBe(401);
  });

  it('logout revokes the session server-side: the old cookies stop working', async () => {
    const { cookie, csrf } = await login();
    const out = await send('DELETE', '/admin/panel/session', { cookie, origin: OWN, 'x-csrf-token': csrf });
    expect(out.statusCode, out.body).toBe(200);
    expect(out.cookies.map((c) => [c.name, c.value])).toEqual([
      ['admin_token', ''],
      ['admin_session', ''],
    ]);
    expect((await send('GET', '/admin/users/me', { cookie })).statusCode).toBe(401);
    expect((await send('GET', '/admin/panel/session', { cookie })).statusCode).toBe(401);
  });

  it('an expired token gives 401 (the panel then asks for a login)', async () => {
    const { cookie } = await login();
    t.clock.advance(24 * 3600 * 1000 + 1000);
    try {
      expect((await send('GET', '/admin/users/me', { cookie })).statusCode).toBe(401);
      expect((await send('GET', '/admin/panel/session', { cookie })).statusCode).toBe(401);
    } finally {
      t.clock.set(new Date());
    }
  });

  it('a viewer signed in through the panel reads but cannot write', async () => {
    const { cookie, csrf } = await login(VIEWER);
    expect((await send('GET', '/admin/customers', { cookie })).statusCode).toBe(200);
    const write = await send(
      'POST',
      '/admin/customers',
      { cookie, origin: OWN, 'x-csrf-token': csrf },
      { first_name: 'Nope' },
    );
    expect(write.statusCode).toBe(403);
    expect(write.json().type).toBe('forbidden');
  });

  it('marks the cookies Secure in production', async () => {
    const prod = await anotherApp(t, { NODE_ENV: 'production' });
    try {
      const res = await prod.inject({ method: 'POST', url: '/admin/panel/session', payload: ADMIN });
      expect(res.statusCode, res.body).toBe(200);
      for (const c of res.cookies) expect(c).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Strict' });
    } finally {
      await prod.close();
    }
  });
});

describe('CSRF on cookie-authenticated writes to /admin', () => {
  it('panel cookies: a write needs the session header token', async () => {
    const { cookie, csrf } = await login();
    const ok = await send(
      'POST',
      '/admin/customers',
      { cookie, origin: OWN, 'x-csrf-token': csrf },
      { first_name: 'With token' },
    );
    expect(ok.statusCode, ok.body).toBe(200);
    const forged: Record<string, string>[] = [
      { cookie },
      { cookie, 'x-csrf-token': 'x'.repeat(43) },
      { cookie, 'x-csrf-token': csrf, origin: 'http://localhost:81' },
    ];
    for (const headers of forged) {
      const res = await send('POST', '/admin/customers', headers, { first_name: 'Forged' });
      expect(res.statusCode).toBe(403);
      expect(res.json().type).toBe('forbidden');
    }
  });

  it('a cross-site form post with the panel cookies gets 403 (before any parsing)', async () => {
    const { cookie } = await login();
    const res = await t.inject({
      method: 'POST',
      url: '/admin/settings',
      headers: {
        cookie,
        origin: 'http://evil.test',
        'content-type': 'application/x-www-form-urlencoded',
        'sec-fetch-site': 'cross-site',
      },
      payload: 'key=shop.name&value=pwned',
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      type: 'forbidden',
      code: 'cross_site_refused',
      message: 'Cross-site request refused',
    });
  });

  it('connect.sid: a foreign Origin (or Origin: null) is refused on every write; the own origin and non-browser clients pass', async () => {
    await makeRegion(t);
    const { order } = await placeOrder(t, { lines: [1] });
    const session = await t.inject({
      method: 'POST',
      url: '/auth/session',
      headers: { authorization: `Bearer ${t.adminToken}` },
    });
    const cookie = `connect.sid=${session.cookies.find((c) => c.name === 'connect.sid')!.value}`;
    for (const origin of ['http://localhost:3000', 'http://shop.evil.test', 'null']) {
      expect((await send('POST', `/admin/orders/${order.id}/cancel`, { cookie, origin })).statusCode).toBe(403);
      expect((await send('DELETE', '/admin/settings/some.key', { cookie, origin })).statusCode).toBe(403);
    }
    expect(
      (await send('POST', `/admin/orders/${order.id}/cancel`, { cookie, referer: 'http://evil.test/page' })).statusCode,
    ).toBe(403);
    expect(
      (await send('POST', `/admin/orders/${order.id}/cancel`, { cookie, 'sec-fetch-site': 'same-site' })).statusCode,
    ).toBe(403);
    expect((await t.admin('GET', `/admin/orders/${order.id}`)).json().order.status).toBe('pending');
    // ADMIN_CORS origins (a Medusa dashboard elsewhere) and PUBLIC_URL's are trusted.
    expect(
      (await send('DELETE', '/admin/settings/some.key', { cookie, origin: 'http://localhost:5173' })).statusCode,
    ).toBe(404);
    expect((await send('DELETE', '/admin/settings/some.key', { cookie, origin: 'http://shop.test' })).statusCode).toBe(
      404,
    );
    // From our own origin a form-submittable POST (no JSON content type) is still refused: the
    // Medusa SDK always sends JSON, which a cross-site page cannot send without a preflight.
    expect((await send('POST', `/admin/orders/${order.id}/cancel`, { cookie, origin: OWN })).statusCode).toBe(403);
    const canceled = await send('POST', `/admin/orders/${order.id}/cancel`, { cookie, origin: OWN }, {});
    expect(canceled.statusCode, canceled.body).toBe(200);
  });

  it('Bearer and secret-key calls are unaffected by Origin', async () => {
    const res = await t.admin(
      'POST',
      '/admin/customers',
      { first_name: 'Bearer' },
      { headers: { origin: 'http://evil.test' } },
    );
    expect(res.statusCode).toBe(200);
  });
});

describe('serving the panel at /app', () => {
  let app: App;
  beforeAll(async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'emporium-panel-'));
    mkdirSync(path.join(dir, 'assets'));
    writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>panel</title>');
    writeFileSync(path.join(dir, 'sandbox.html'), '<!doctype html><title>frame</title>');
    writeFileSync(path.join(dir, 'assets', 'index-AbC123.js'), 'export {}');
    // As the build writes them: every page also compressed, served to browsers that accept it.
    for (const page of ['index.html', 'sandbox.html']) {
      const html = readFileSync(path.join(dir, page));
      writeFileSync(path.join(dir, `${page}.br`), brotliCompressSync(html));
      writeFileSync(path.join(dir, `${page}.gz`), gzipSync(html));
    }
    app = await anotherApp(t, undefined, { adminPanelDir: dir });
  });
  afterAll(() => app.close());

  it('index.html for /app and any page under it, revalidated, under a strict CSP', async () => {
    const bare = await app.inject({ method: 'GET', url: '/app?safe-mode=1' });
    expect(bare.statusCode).toBe(302);
    expect(bare.headers.location).toBe('/app/?safe-mode=1');
    for (const url of ['/app/', '/app/orders/order_1?tab=x']) {
      for (const encoding of ['identity', 'gzip', 'br']) {
        const res = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': encoding } });
        expect(res.statusCode, url).toBe(200);
        expect(res.headers['content-encoding'], encoding).toBe(encoding === 'identity' ? undefined : encoding);
        if (encoding === 'identity') expect(res.body).toContain('<title>panel</title>');
        expect(res.headers['cache-control']).toBe('no-cache');
        expect(res.headers['content-security-policy'], `${url} ${encoding}`).toContain("script-src 'self'");
        expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
        expect(res.headers['referrer-policy']).toBe('same-origin');
      }
    }
  });

  it('hashed assets are cached for a year; a missing one is a 404, not the page', async () => {
    const asset = await app.inject({ method: 'GET', url: '/app/assets/index-AbC123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await app.inject({ method: 'GET', url: '/app/assets/gone-1.js' })).statusCode).toBe(404);
  });

  it('the extension frame is sandboxed by its own policy', async () => {
    for (const encoding of ['identity', 'br']) {
      const res = await app.inject({
        method: 'GET',
        url: '/app/sandbox.html',
        headers: { 'accept-encoding': encoding },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-security-policy'], encoding).toMatch(/^sandbox allow-scripts; default-src 'none'/);
    }
  });

  it('without a build, /app says how to make one', async () => {
    const bare = await anotherApp(t, undefined, { adminPanelDir: path.join(tmpdir(), 'no-such-panel') });
    try {
      const res = await bare.inject({ method: 'GET', url: '/app/' });
      expect(res.statusCode).toBe(503);
      expect(res.body).toContain('npm run build:admin');
    } finally {
      await bare.close();
    }
  });
});
