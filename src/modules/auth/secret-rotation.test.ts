import { decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startTestApp, type TestApp, anotherApp } from '../../../test/app.ts';
import type { App } from '../../platform/http/types.ts';
import { keyId } from './tokens.ts';

/**
 * JWT_SECRET and COOKIE_SECRET rotate without signing anyone out: the instances started before
 * the change (old secret) and after it (new current, old previous) accept each other's tokens and
 * cookies; once the previous secret is removed, what it signed is refused.
 */
const OLD = { JWT_SECRET: 'old-jwt-secret-0123456789abcdef0123', COOKIE_SECRET: 'old-cookie-secret-0123456789' };
const NEW = { JWT_SECRET: 'new-jwt-secret-0123456789abcdef0123', COOKIE_SECRET: 'new-cookie-secret-0123456789' };
const ROTATING = { ...NEW, JWT_SECRET_PREVIOUS: OLD.JWT_SECRET, COOKIE_SECRET_PREVIOUS: OLD.COOKIE_SECRET };

let t: TestApp;
const apps: App[] = [];
beforeAll(async () => {
  t = await startTestApp({ env: OLD });
});
afterAll(async () => {
  for (const app of apps) await app.close();
  await t.close();
});

async function instance(env: Record<string, string>): Promise<App> {
  const app = await anotherApp(t, env);
  apps.push(app);
  return app;
}

const login = async (app: App) => {
  const res = await app.inject({ method: 'POST', url: '/auth/user/emailpass', payload: ADMIN });
  expect(res.statusCode).toBe(200);
  return res.json().token as string;
};
const me = (app: App, headers: Record<string, string>) =>
  app.inject({ method: 'GET', url: '/admin/users/me', headers });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const session = async (app: App, token: string) => {
  const res = await app.inject({ method: 'POST', url: '/auth/session', headers: bearer(token) });
  expect(res.statusCode).toBe(200);
  return `connect.sid=${res.cookies.find((c) => c.name === 'connect.sid')!.value}`;
};

describe('rotating JWT_SECRET and COOKIE_SECRET', () => {
  it('tokens name their key; old and new verify on both sides during the change; the old one stops after', async () => {
    const rotating = await instance(ROTATING);
    const oldToken = await login(t.app);
    const newToken = await login(rotating);
    expect(decodeProtectedHeader(oldToken).kid).toBe(keyId(OLD.JWT_SECRET));
    expect(decodeProtectedHeader(newToken).kid).toBe(keyId(NEW.JWT_SECRET));
    expect(JSON.stringify(decodeProtectedHeader(newToken))).not.toContain(NEW.JWT_SECRET);

    expect((await me(rotating, bearer(oldToken))).statusCode).toBe(200);
    expect((await me(rotating, bearer(newToken))).statusCode).toBe(200);

    const done = await instance(NEW);
    expect((await me(done, bearer(newToken))).statusCode).toBe(200);
    expect((await me(done, bearer(oldToken))).statusCode).toBe(401);
  });

  it('session cookies signed with the previous secret are read while it is set', async () => {
    const rotating = await instance(ROTATING);
    const oldCookie = await session(t.app, await login(t.app));
    const newCookie = await session(rotating, await login(rotating));
    expect((await me(rotating, { cookie: oldCookie })).statusCode).toBe(200);
    expect((await me(rotating, { cookie: newCookie })).statusCode).toBe(200);
    const done = await instance(NEW);
    expect((await me(done, { cookie: newCookie })).statusCode).toBe(200);
    expect((await me(done, { cookie: oldCookie })).statusCode).toBe(401);
  });

  it('a token with an unknown kid is refused, one without a kid (issued before key ids) still verifies', async () => {
    const rotating = await instance(ROTATING);
    const token = await login(rotating);
    const [, payload, signature] = token.split('.');
    const header = (h: object) => Buffer.from(JSON.stringify(h)).toString('base64url');
    const unknown = `${header({ alg: 'HS256', typ: 'JWT', kid: 'nope' })}.${payload}.${signature}`;
    expect((await me(rotating, bearer(unknown))).statusCode).toBe(401);
    const { SignJWT } = await import('jose');
    const legacy = await new SignJWT(JSON.parse(Buffer.from(payload, 'base64url').toString()))
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .sign(new TextEncoder().encode(OLD.JWT_SECRET));
    expect((await me(rotating, bearer(legacy))).statusCode).toBe(200);
  });
});
