import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { rows } from '../../platform/db/database.ts';
import type { JsonObject } from '../../platform/providers.ts';
import {
  bearer,
  loginToken,
  PASSWORD,
  registerToken,
  sessionCookie,
  signUpCustomer,
  uniqueEmail,
} from '../customers/customers.testing.ts';
import { installMailbox, resetPassword } from './auth.testing.ts';
import { createUser } from './service.ts';

/**
 * A password reset signs out whoever held the old password: every token issued before it and
 * every session of that login (`connect.sid`, the admin panel's cookies) answer 401 afterwards,
 * while a login with the new password works.
 */
let t: TestApp;
let sent: JsonObject[];
beforeAll(async () => {
  t = await startTestApp();
  sent = installMailbox(t);
});
afterAll(() => t.close());

const NEW_PASSWORD = 'a-new-password-2';
const OWN = 'http://localhost:80';

const adminMe = (headers: Record<string, string>) => t.inject({ method: 'GET', url: '/admin/users/me', headers });
const customerMe = (headers: Record<string, string>) => t.store('GET', '/store/customers/me', undefined, { headers });
const startSession = (token: string) => t.inject({ method: 'POST', url: '/auth/session', headers: bearer(token) });

async function adminLogin(email: string, password: string) {
  return t.inject({ method: 'POST', url: '/auth/user/emailpass', payload: { email, password } });
}

describe('a password reset revokes what the old password gave', () => {
  it('an admin: the old bearer, connect.sid and panel cookies get 401; other users and a new login work', async () => {
    const email = uniqueEmail('reset-admin');
    const user = await createUser(t.ctx, { email, password: PASSWORD, role: 'admin' });
    const token = (await adminLogin(email, PASSWORD)).json().token as string;
    const connectSid = await sessionCookie(t, token);
    const panel = await t.inject({
      method: 'POST',
      url: '/admin/panel/session',
      payload: { email, password: PASSWORD },
      headers: { origin: OWN },
    });
    expect(panel.statusCode, panel.body).toBe(200);
    const panelCookies = panel.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    for (const headers of [bearer(token), { cookie: connectSid }, { cookie: panelCookies }]) {
      expect((await adminMe(headers)).statusCode).toBe(200);
    }

    await resetPassword(t, sent, 'user', email, NEW_PASSWORD);

    for (const headers of [bearer(token), { cookie: connectSid }, { cookie: panelCookies }]) {
      const res = await adminMe(headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(401);
      expect(res.json()).toEqual({ type: 'unauthorized', code: 'unauthorized', message: 'Unauthorized' });
    }
    const panelAfter = await t.inject({
      method: 'GET',
      url: '/admin/panel/session',
      headers: { cookie: panelCookies },
    });
    expect(panelAfter.statusCode).toBe(401);
    expect((await startSession(token)).statusCode).toBe(401); // no new session from the old token either
    const [left] = await rows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from sessions where claims->>'actor_id' = ${user.id}`,
    );
    expect(left.n).toBe(0);

    expect((await t.admin('GET', '/admin/users/me')).statusCode).toBe(200); // another admin is untouched
    expect((await adminLogin(email, PASSWORD)).statusCode).toBe(401);
    const fresh = (await adminLogin(email, NEW_PASSWORD)).json().token as string;
    expect((await adminMe(bearer(fresh))).json().user.email).toBe(email);
    expect((await adminMe({ cookie: await sessionCookie(t, fresh) })).statusCode).toBe(200);
  });

  it('a customer: the old bearer and connect.sid get 401 on /store/customers/me; a new login works', async () => {
    const { email, token } = await signUpCustomer(t);
    const other = await signUpCustomer(t);
    const cookie = await sessionCookie(t, token);
    expect((await customerMe(bearer(token))).statusCode).toBe(200);
    expect((await customerMe({ cookie })).statusCode).toBe(200);

    await resetPassword(t, sent, 'customer', email, NEW_PASSWORD);

    for (const headers of [bearer(token), { cookie }]) {
      const res = await customerMe(headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(401);
      expect(res.json().type).toBe('unauthorized');
    }
    expect((await startSession(token)).statusCode).toBe(401);
    expect((await customerMe(bearer(other.token))).statusCode).toBe(200);
    const fresh = await loginToken(t, email, NEW_PASSWORD);
    expect((await customerMe(bearer(fresh))).json().customer.email).toBe(email);
    expect((await customerMe({ cookie: await sessionCookie(t, fresh) })).statusCode).toBe(200);
  });

  it('a register token issued before the reset cannot create the account; one issued after can', async () => {
    const email = uniqueEmail('reset-register');
    const before = await registerToken(t, email);
    await resetPassword(t, sent, 'customer', email, NEW_PASSWORD);
    const refused = await t.store('POST', '/store/customers', { first_name: 'Mallory' }, { headers: bearer(before) });
    expect(refused.statusCode).toBe(401);
    const after = await registerToken(t, email, NEW_PASSWORD);
    const created = await t.store('POST', '/store/customers', { first_name: 'Ada' }, { headers: bearer(after) });
    expect(created.statusCode, created.body).toBe(200);
  });
});
