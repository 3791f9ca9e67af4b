import { SignJWT, decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ADMIN, VIEWER, startTestApp, type TestApp } from '../../../test/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { LOGIN_MAX_FAILURES: '3' } });
});
afterAll(() => t.close());

const login = (body: unknown, ip = '10.0.0.1') =>
  t.inject({ method: 'POST', url: '/auth/user/emailpass', payload: body as object, remoteAddress: ip });

describe('POST /auth/user/emailpass', () => {
  it('returns a JWT with Medusa claims that expires after 24 hours', async () => {
    const res = await login(ADMIN);
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json())).toEqual(['token']);
    const claims = decodeJwt(res.json().token);
    expect(claims).toMatchObject({ actor_type: 'user', auth_provider: 'emailpass', user_metadata: {} });
    expect(claims.actor_id).toMatch(/^user_[0-9A-Z]{26}$/);
    expect(claims.auth_identity_id).toMatch(/^authid_/);
    expect(claims.app_metadata).toEqual({ user_id: claims.actor_id, roles: ['owner'] });
    expect(claims.exp! - claims.iat!).toBe(24 * 3600);
  });

  it('accepts the email in any case', async () => {
    expect((await login({ ...ADMIN, email: ADMIN.email.toUpperCase() })).statusCode).toBe(200);
  });

  it('gives the same 401 for a wrong password and an unknown email', async () => {
    const wrong = await login({ email: ADMIN.email, password: 'nope-nope' }, '10.0.0.2');
    const unknown = await login({ email: 'ghost@example.com', password: 'nope-nope' }, '10.0.0.2');
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual({
      type: 'unauthorized',
      code: 'invalid_credentials',
      message: 'Invalid email or password',
    });
    expect(unknown.body).toBe(wrong.body);
  });

  it('rejects bad bodies with 400 invalid_data naming the field', async () => {
    const missing = await login({ email: ADMIN.email });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({
      type: 'invalid_data',
      code: 'invalid_request',
      message: "Invalid request: Field 'password' is required",
    });
    const extra = await login({ ...ADMIN, remember: true });
    expect(extra.statusCode).toBe(400);
    expect(extra.json().message).toContain("Unrecognized fields: 'remember'");
    const wrongType = await login({ email: ADMIN.email, password: 5 });
    expect(wrongType.statusCode).toBe(400);
    expect(wrongType.json().message).toContain("'password'");
    const malformed = await t.inject({
      method: 'POST',
      url: '/auth/user/emailpass',
      payload: '{"email": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().type).toBe('invalid_data');
  });

  it('past the per-email budget, addresses that failed get 429 and Retry-After; a clean address is still checked', async () => {
    const who = { email: 'target@example.com', password: 'whatever-1' };
    for (let i = 0; i < 3; i++) expect((await login(who, `10.1.0.${i}`)).statusCode).toBe(401);
    const blocked = await login(who, '10.1.0.0');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().type).toBe('too_many_requests');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect((await login(who, '10.1.0.9')).statusCode).toBe(401);
    // Another account from another address is unaffected.
    expect((await login(VIEWER, '10.1.0.10')).statusCode).toBe(200);
  });

  it('limits failed logins per IP across emails', async () => {
    const ip = '10.2.0.1';
    for (let i = 0; i < 12; i++) await login({ email: `spray${i}@example.com`, password: 'x' }, ip);
    const res = await login(ADMIN, ip);
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBeDefined();
  });
});

describe('admin authentication', () => {
  it('GET /admin/users lists the users with their roles, never a password hash (viewers may read it)', async () => {
    const res = await t.admin('GET', '/admin/users', undefined, { token: t.viewerToken });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ count: 2, limit: 50, offset: 0 });
    expect(body.users.map((u: { email: string; role: string }) => [u.email, u.role]).sort()).toEqual([
      ['admin@example.com', 'owner'],
      ['viewer@example.com', 'viewer'],
    ]);
    expect(res.body).not.toContain('password');
  });

  it('GET /admin/users/me returns the user without its password hash', async () => {
    const res = await t.admin('GET', '/admin/users/me');
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({ email: ADMIN.email, role: 'owner' });
    expect(res.body).not.toContain('password');
    expect(res.body).not.toContain('argon2');
  });

  it('rejects missing, malformed, tampered and wrong-secret tokens with 401', async () => {
    const none = await t.inject({ method: 'GET', url: '/admin/users/me' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual({ type: 'unauthorized', code: 'unauthorized', message: 'Unauthorized' });
    expect((await t.admin('GET', '/admin/users/me', undefined, { token: 'not-a-jwt' })).statusCode).toBe(401);
    const [h, p, s] = t.adminToken.split('.');
    const payload = JSON.parse(Buffer.from(p, 'base64url').toString());
    const forged = Buffer.from(
      JSON.stringify({ ...payload, app_metadata: { roles: ['admin'] }, exp: payload.exp + 999 }),
    ).toString('base64url');
    expect((await t.admin('GET', '/admin/users/me', undefined, { token: `${h}.${forged}.${s}` })).statusCode).toBe(401);
    const otherSecret = await new SignJWT(payload)
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode('another-secret'));
    expect((await t.admin('GET', '/admin/users/me', undefined, { token: otherSecret })).statusCode).toBe(401);
    const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${p}.`;
    expect((await t.admin('GET', '/admin/users/me', undefined, { token: unsigned })).statusCode).toBe(401);
  });

  it('rejects a token once it has expired (24 h by the injected clock)', async () => {
    const token = (await login(ADMIN, '10.3.0.1')).json().token;
    t.clock.advance(24 * 3600 * 1000 - 5_000);
    expect((await t.admin('GET', '/admin/users/me', undefined, { token })).statusCode).toBe(200);
    t.clock.advance(10_000);
    expect((await t.admin('GET', '/admin/users/me', undefined, { token })).statusCode).toBe(401);
  });

  it('rejects a correctly signed token without exp', async () => {
    const { exp: _exp, ...claims } = decodeJwt(t.adminToken);
    const token = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode(t.config.jwtSecret));
    expect((await t.admin('GET', '/admin/users/me', undefined, { token })).statusCode).toBe(401);
    const session = await t.inject({
      method: 'POST',
      url: '/auth/session',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(session.statusCode).toBe(401);
  });

  it('rejects a customer token on /admin', async () => {
    const payload = { ...decodeJwt(t.adminToken), actor_type: 'customer' };
    const token = await new SignJWT(payload)
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode(t.config.jwtSecret));
    expect((await t.admin('GET', '/admin/users/me', undefined, { token })).statusCode).toBe(401);
  });

  it('lets a viewer read but not write (403)', async () => {
    t.clock.set(new Date());
    const viewer = (await login(VIEWER, '10.4.0.1')).json().token;
    expect((await t.admin('GET', '/admin/users/me', undefined, { token: viewer })).json().user.role).toBe('viewer');
    const write = await t.admin('POST', '/admin/sales-channels', { name: 'Viewer channel' }, { token: viewer });
    expect(write.statusCode).toBe(403);
    expect(write.json().type).toBe('forbidden');
  });

  it('rejects the token of a user deleted after login', async () => {
    const token = (await login(VIEWER, '10.5.0.1')).json().token;
    await t.database.db.execute(sql`update users set deleted_at = now() where email = ${VIEWER.email}`);
    expect((await t.admin('GET', '/admin/users/me', undefined, { token })).statusCode).toBe(401);
    await t.database.db.execute(sql`update users set deleted_at = null where email = ${VIEWER.email}`);
  });
});
