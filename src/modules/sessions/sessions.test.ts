import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, VIEWER, startTestApp, type TestApp, anotherApp } from '../../../test/app.ts';
import { rows } from '../../platform/db/database.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

async function startSession(token: string) {
  const res = await t.inject({ method: 'POST', url: '/auth/session', headers: { authorization: `Bearer ${token}` } });
  expect(res.statusCode, res.body).toBe(200);
  const value = res.cookies.find((c) => c.name === 'connect.sid')!.value;
  return { res, value, cookie: `connect.sid=${value}` };
}

const asCookie = (cookie: string, method = 'GET', url = '/admin/users/me', payload?: object) =>
  t.inject({ method: method as 'GET', url, headers: { cookie }, payload });

describe('admin sessions (Medusa: a connect.sid cookie alone authorizes /admin)', () => {
  it('a user session authorizes admin routes until DELETE /auth/session', async () => {
    const { res, cookie } = await startSession(t.adminToken);
    expect(res.json().user).toMatchObject({ actor_type: 'user', auth_provider: 'emailpass' });
    const meRes = await asCookie(cookie);
    expect(meRes.statusCode).toBe(200);
    expect(meRes.json().user.role).toBe('owner'); // the first user of a shop is its owner
    expect((await asCookie(cookie, 'GET', '/admin/customers?limit=1')).statusCode).toBe(200);
    expect((await asCookie(cookie, 'POST', '/admin/customers', { first_name: 'By cookie' })).statusCode).toBe(200);

    const end = await t.inject({ method: 'DELETE', url: '/auth/session', headers: { cookie } });
    expect(end.json()).toEqual({ success: true });
    const after = await asCookie(cookie);
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({ type: 'unauthorized', code: 'unauthorized', message: 'Unauthorized' });
  });

  it('a viewer session may read but not write', async () => {
    const { cookie } = await startSession(t.viewerToken);
    expect((await asCookie(cookie, 'GET', '/admin/customers')).statusCode).toBe(200);
    const write = await asCookie(cookie, 'POST', '/admin/customers', { first_name: 'Viewer' });
    expect(write.statusCode).toBe(403);
    expect(write.json().type).toBe('forbidden');
  });

  it('rejects forged, unsigned and foreign-secret cookies', async () => {
    const { value } = await startSession(t.adminToken);
    const [token, signature] = [value.slice(0, value.lastIndexOf('.')), value.slice(value.lastIndexOf('.') + 1)];
    const flipped = signature[0] === 'A' ? `B${signature.slice(1)}` : `A${signature.slice(1)}`;
    expect((await asCookie(`connect.sid=${token}.${flipped}`)).statusCode).toBe(401);
    expect((await asCookie(`connect.sid=${token}`)).statusCode).toBe(401);
    const other = await anotherApp(t, { COOKIE_SECRET: 'another-cookie-secret-0123' });
    try {
      const res = await other.inject({
        method: 'POST',
        url: '/auth/session',
        headers: { authorization: `Bearer ${t.adminToken}` },
      });
      const foreign = res.cookies.find((c) => c.name === 'connect.sid')!.value;
      expect((await asCookie(`connect.sid=${foreign}`)).statusCode).toBe(401);
    } finally {
      await other.close();
    }
  });

  it('stores only the sha256 of the session token, with the claims and a 10-hour expiry', async () => {
    const { value } = await startSession(t.adminToken);
    const token = value.slice(0, value.lastIndexOf('.'));
    const found = await rows<{ id: string; claims: { actor_type: string }; expires_at: Date | string }>(
      t.database.db,
      sql`select id, claims, expires_at from sessions where id = ${createHash('sha256').update(token).digest('hex')}`,
    );
    expect(found).toHaveLength(1);
    expect(found[0].claims.actor_type).toBe('user');
    expect(new Date(found[0].expires_at).getTime()).toBe(t.clock.now().getTime() + 10 * 3600 * 1000);
    expect((await rows(t.database.db, sql`select 1 from sessions where id = ${token}`)).length).toBe(0);
  });

  it('expires after 10 hours by the injected clock, and expired rows are swept', async () => {
    const { cookie, value } = await startSession(t.adminToken);
    const id = createHash('sha256')
      .update(value.slice(0, value.lastIndexOf('.')))
      .digest('hex');
    t.clock.advance(10 * 3600 * 1000 - 1000);
    expect((await asCookie(cookie)).statusCode).toBe(200);
    t.clock.advance(1000);
    expect((await asCookie(cookie)).statusCode).toBe(401);
    expect((await t.inject({ method: 'DELETE', url: '/auth/session', headers: { cookie } })).statusCode).toBe(401);
    // The admin token (24 h) outlives this session; a new session sweeps the expired row.
    const [before] = await rows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from sessions where id = ${id}`,
    );
    expect(before.n).toBe(1);
    await startSession(t.adminToken);
    const [after] = await rows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from sessions where id = ${id}`,
    );
    expect(after.n).toBe(0);
    t.clock.set(new Date());
  });

  it('never outlives the token it was made from: 1 hour left on the token, 1 hour of session', async () => {
    const login = await t.inject({ method: 'POST', url: '/auth/user/emailpass', payload: ADMIN });
    const token = login.json().token as string;
    try {
      t.clock.advance(23 * 3600 * 1000); // the token (24 h) has an hour left
      const { res, cookie } = await startSession(token);
      expect(res.cookies.find((c) => c.name === 'connect.sid')!.maxAge).toBe(3600);
      t.clock.advance(3600 * 1000 - 1000);
      expect((await asCookie(cookie)).statusCode).toBe(200);
      t.clock.advance(1000);
      expect((await t.admin('GET', '/admin/users/me', undefined, { token })).statusCode).toBe(401);
      expect((await asCookie(cookie)).statusCode).toBe(401);
    } finally {
      t.clock.set(new Date());
    }
  });

  it('a session stops working when its user is deleted', async () => {
    const { cookie } = await startSession(t.viewerToken);
    await t.database.db.execute(sql`update users set deleted_at = now() where email = ${VIEWER.email}`);
    expect((await asCookie(cookie)).statusCode).toBe(401);
    await t.database.db.execute(sql`update users set deleted_at = null where email = ${VIEWER.email}`);
    expect((await asCookie(cookie)).statusCode).toBe(200);
  });

  it('marks the cookie Secure in production', async () => {
    const prod = await anotherApp(t, { NODE_ENV: 'production' });
    try {
      const res = await prod.inject({
        method: 'POST',
        url: '/auth/session',
        headers: { authorization: `Bearer ${t.adminToken}` },
      });
      expect(res.statusCode).toBe(200);
      expect(String(res.headers['set-cookie'])).toMatch(/; Max-Age=36000; Path=\/; HttpOnly; Secure; SameSite=Lax$/);
    } finally {
      await prod.close();
    }
  });
});
