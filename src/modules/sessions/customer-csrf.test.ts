import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';

/**
 * A customer's `connect.sid` session on /store and /auth gets the admin surface's CSRF check:
 * a state-changing request with the cookie must come from this origin or one of STORE_CORS /
 * AUTH_CORS; Bearer calls and non-browser clients (no Origin, no Sec-Fetch-Site) are unaffected.
 */
let t: TestApp;
let customerToken: string;
let cookie: string;
const EVIL = 'http://evil.localhost:9999';
beforeAll(async () => {
  t = await startTestApp({ env: { STORE_CORS: 'https://shop.example', AUTH_CORS: 'https://shop.example' } });
  const email = 'csrf-shopper@example.com';
  const password = 'shopper-password-1';
  const reg = await t.inject({
    method: 'POST',
    url: '/auth/customer/emailpass/register',
    payload: { email, password },
  });
  await t.store(
    'POST',
    '/store/customers',
    { email, first_name: 'Ada' },
    { headers: { authorization: `Bearer ${reg.json().token}` } },
  );
  customerToken = (
    await t.inject({ method: 'POST', url: '/auth/customer/emailpass', payload: { email, password } })
  ).json().token;
  const session = await t.inject({
    method: 'POST',
    url: '/auth/session',
    headers: { authorization: `Bearer ${customerToken}` },
  });
  cookie = `connect.sid=${session.cookies.find((c) => c.name === 'connect.sid')!.value}`;
});
afterAll(() => t.close());

const updateMe = (headers: Record<string, string>) =>
  t.store('POST', '/store/customers/me', { first_name: 'Changed' }, { headers: { cookie, ...headers } });

describe('CSRF on customer sessions', () => {
  it('refuses a cookie-authenticated write from a foreign origin (403), changing nothing', async () => {
    const foreign: Record<string, string>[] = [
      { origin: EVIL },
      { origin: 'null' },
      { referer: `${EVIL}/page` },
      { 'sec-fetch-site': 'cross-site' },
    ];
    for (const headers of foreign) {
      const res = await updateMe(headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(403);
      expect(res.json()).toEqual({
        type: 'forbidden',
        code: 'cross_site_refused',
        message: 'Cross-site request refused',
      });
    }
    expect(
      (await t.store('GET', '/store/customers/me', undefined, { headers: { cookie } })).json().customer.first_name,
    ).toBe('Ada');
    const logout = await t.inject({ method: 'DELETE', url: '/auth/session', headers: { cookie, origin: EVIL } });
    expect(logout.statusCode).toBe(403);
  });

  it('lets the shop’s own origins, STORE_CORS and non-browser clients through; reads are never checked', async () => {
    expect((await updateMe({ origin: 'https://shop.example' })).statusCode).toBe(200);
    expect((await updateMe({ origin: 'http://shop.test' })).statusCode).toBe(200); // PUBLIC_URL
    expect((await updateMe({})).statusCode).toBe(200); // curl, a server: no Origin, nothing to forge
    expect(
      (await t.store('GET', '/store/customers/me', undefined, { headers: { cookie, origin: EVIL } })).statusCode,
    ).toBe(200);
  });

  it('refuses a form-submittable write from a browser even from a trusted origin (no preflight, no token)', async () => {
    for (const type of ['application/x-www-form-urlencoded', 'text/plain', 'multipart/form-data; boundary=x']) {
      const res = await t.inject({
        method: 'POST',
        url: '/store/customers/me',
        headers: {
          cookie,
          origin: 'https://shop.example',
          'content-type': type,
          'x-publishable-api-key': t.publishableKey,
        },
        payload: 'first_name=Forged',
      });
      expect(res.statusCode, type).toBe(403);
      expect(res.json()).toEqual({
        type: 'forbidden',
        code: 'cookie_write_not_json',
        message: 'A cookie-authenticated write must be sent as JSON',
      });
    }
    expect(
      (await t.store('GET', '/store/customers/me', undefined, { headers: { cookie } })).json().customer.first_name,
    ).not.toBe('Forged');
  });

  it('leaves Bearer calls alone, whatever their origin', async () => {
    const res = await t.store(
      'POST',
      '/store/customers/me',
      { first_name: 'Bearer' },
      {
        headers: { authorization: `Bearer ${customerToken}`, origin: EVIL },
      },
    );
    expect(res.statusCode).toBe(200);
  });

  it('covers the admin examples of the report with an admin connect.sid', async () => {
    const session = await t.inject({
      method: 'POST',
      url: '/auth/session',
      headers: { authorization: `Bearer ${t.adminToken}` },
    });
    const adminCookie = `connect.sid=${session.cookies.find((c) => c.name === 'connect.sid')!.value}`;
    expect((await t.admin('POST', '/admin/settings', { key: 'csrf-probe', value: 'x' })).statusCode).toBe(200);
    const res = await t.inject({
      method: 'DELETE',
      url: '/admin/settings/csrf-probe',
      headers: { cookie: adminCookie, origin: EVIL },
    });
    expect(res.statusCode).toBe(403);
    expect((await t.admin('GET', '/admin/settings/csrf-probe')).statusCode).toBe(200);
  });
});
