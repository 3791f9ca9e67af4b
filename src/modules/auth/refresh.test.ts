import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startTestApp, type TestApp } from '../../../test/app.ts';
import { medusaSdks } from '../../../test/medusa-sdk.ts';
import { bearer, registerToken, sessionCookie, uniqueEmail } from '../customers/customers.testing.ts';
import { login, memberWithRole } from '../team/team.testing.ts';

/**
 * `POST /auth/token/refresh` (`sdk.auth.refresh`): a valid token buys one with the login's
 * current claims, expiring when the old one does, never later; a revoked or expired one buys nothing.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')) as Record<string, unknown> & {
    exp: number;
    iat: number;
    actor_id: string;
    app_metadata: Record<string, unknown>;
  };

const refresh = (headers: Record<string, string>) => t.inject({ method: 'POST', url: '/auth/token/refresh', headers });

describe('token refresh', () => {
  it('the SDK gets a fresh admin token with the current role that expires with the old one', async () => {
    const member = await memberWithRole(t, 'viewer', 'refresh');
    const { dashboard: sdk } = await medusaSdks(t);
    await sdk.client.setToken(member.token);
    await t.admin('POST', `/admin/users/${member.id}`, { role: 'support' });
    t.clock.advance(3600_000);

    const { token } = (await sdk.auth.refresh()) as unknown as { token: string };
    const before = claimsOf(member.token);
    const after = claimsOf(token);
    expect(after).toMatchObject({ actor_id: member.id, actor_type: 'user', app_metadata: { roles: ['support'] } });
    expect(after.iat).toBe(before.iat + 3600);
    expect(after.exp).toBe(before.exp);
    // The SDK keeps the new token and goes on with it.
    expect((await sdk.admin.user.me()).user.id).toBe(member.id);

    t.clock.advance((before.exp - after.iat) * 1000 + 1000);
    for (const old of [member.token, token]) expect((await refresh(bearer(old))).statusCode).toBe(401);
  });

  it('refuses a token revoked by a password change, a forged one, and no token at all', async () => {
    const member = await memberWithRole(t, 'viewer', 'revoked');
    expect((await refresh(bearer(member.token))).statusCode).toBe(200);
    // The first test's clock ran past the fixture's owner token: sign in again.
    const owner = await login(t, ADMIN.email, ADMIN.password);
    const asked = await t.admin('POST', `/admin/users/${member.id}/reset-password`, undefined, { token: owner });
    expect(asked.statusCode, asked.body).toBe(200);
    const reset = asked.json().token as string;
    const set = await t.inject({
      method: 'POST',
      url: '/auth/user/emailpass/update',
      headers: bearer(reset),
      payload: { password: 'a-brand-new-password-1' },
    });
    expect(set.statusCode, set.body).toBe(200);
    const refused = await refresh(bearer(member.token));
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ type: 'unauthorized' });
    expect((await refresh(bearer(`${member.token.slice(0, -4)}AAAA`))).statusCode).toBe(401);
    expect((await refresh({})).statusCode).toBe(401);
  });

  it('a customer: the token of a registration names the customer made since; a session cookie works too', async () => {
    const email = uniqueEmail('refresh');
    const registered = await registerToken(t, email);
    expect(claimsOf(registered).actor_id).toBe('');
    const created = await t.store('POST', '/store/customers', {}, { headers: bearer(registered) });
    expect(created.statusCode, created.body).toBe(200);
    const customerId = created.json().customer.id as string;

    const res = await refresh(bearer(registered));
    expect(res.statusCode, res.body).toBe(200);
    const fresh = res.json().token as string;
    expect(claimsOf(fresh)).toMatchObject({ actor_id: customerId, app_metadata: { customer_id: customerId } });
    expect(claimsOf(fresh).exp).toBe(claimsOf(registered).exp);
    const me = await t.store('GET', '/store/customers/me', undefined, { headers: bearer(fresh) });
    expect(me.statusCode).toBe(200);

    const cookie = await sessionCookie(t, fresh);
    const viaSession = await refresh({ cookie });
    expect(viaSession.statusCode, viaSession.body).toBe(200);
    expect(claimsOf(viaSession.json().token).exp).toBe(claimsOf(fresh).exp);
  });
});
