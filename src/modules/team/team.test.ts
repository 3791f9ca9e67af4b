import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../platform/db/database.ts';
import { ADMIN, startTestApp, type TestApp } from '../../../test/app.ts';
import { medusaSdks, type Sdk, sdkFailure } from '../../../test/medusa-sdk.ts';
import { installMailbox } from '../auth/auth.testing.ts';
import { customRole, login, memberWithRole, teamEmail } from './team.testing.ts';

/** The team through Medusa's JS SDK (`sdk.admin.user.*`, `sdk.admin.invite.*`) and our `/admin/roles`. */
let t: TestApp;
let sdk: Sdk;
let baseUrl: string;
beforeAll(async () => {
  t = await startTestApp();
  ({ dashboard: sdk, baseUrl } = await medusaSdks(t));
});
afterAll(() => t.close());

const ownerId = async () => (await sdk.admin.user.me()).user.id;

describe('users', () => {
  it('lists, retrieves and edits through the SDK; /users/me edits your own profile', async () => {
    const { users, count } = await sdk.admin.user.list();
    expect(count).toBeGreaterThanOrEqual(2);
    expect(users.map((u) => u.email)).toContain(ADMIN.email);
    const me = (await sdk.admin.user.me()).user;
    expect(me).toMatchObject({ email: ADMIN.email, role: 'owner' });
    expect((await sdk.admin.user.retrieve(me.id)).user.email).toBe(ADMIN.email);
    const updated = await sdk.admin.user.update(me.id, { first_name: 'Ada', last_name: 'Lovelace' });
    expect(updated.user).toMatchObject({ first_name: 'Ada', last_name: 'Lovelace' });

    const viewer = await memberWithRole(t, 'viewer');
    const mine = await t.admin('POST', '/admin/users/me', { first_name: 'Vera' }, { token: viewer.token });
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json().user).toMatchObject({ first_name: 'Vera', role: 'viewer' });
    const promote = await t.admin('POST', '/admin/users/me', { role: 'admin' }, { token: viewer.token });
    expect(promote.statusCode).toBe(400); // not a field of /users/me
  });

  it('the last owner can never be demoted or removed; a second owner makes it possible', async () => {
    const id = await ownerId();
    expect(await sdkFailure(sdk.admin.user.update(id, { role: 'admin' } as never))).toEqual({
      status: 400,
      message: 'The shop must keep at least one owner: make another user owner first',
    });
    expect((await sdkFailure(sdk.admin.user.delete(id))).status).toBe(400);
    expect((await sdk.admin.user.me()).user).toMatchObject({ role: 'owner' });

    const second = await memberWithRole(t, 'admin', 'second');
    // An admin may neither make an owner nor touch one.
    const selfPromote = await t.admin('POST', `/admin/users/${second.id}`, { role: 'owner' }, { token: second.token });
    expect(selfPromote.statusCode).toBe(403);
    expect((await t.admin('DELETE', `/admin/users/${id}`, undefined, { token: second.token })).statusCode).toBe(403);

    await sdk.admin.user.update(second.id, { role: 'owner' } as never);
    const demoted = await t.admin('POST', `/admin/users/${id}`, { role: 'admin' }, { token: second.token });
    expect(demoted.statusCode, demoted.body).toBe(200);
    // Now the other one is the last owner.
    const last = await t.admin('DELETE', `/admin/users/${second.id}`, undefined, { token: second.token });
    expect(last.statusCode).toBe(400);
    const back = await t.admin('POST', `/admin/users/${id}`, { role: 'owner' }, { token: second.token });
    expect(back.statusCode).toBe(200);
    const removed = await sdk.admin.user.delete(second.id);
    expect(removed).toEqual({ id: second.id, object: 'user', deleted: true });
    expect((await t.admin('GET', '/admin/users/me', undefined, { token: second.token })).statusCode).toBe(401);
  });

  it('an admin assigns only roles it holds; an unknown role is 400', async () => {
    const admin = await memberWithRole(t, 'admin');
    const target = await memberWithRole(t, 'viewer');
    const set = (role: string) => t.admin('POST', `/admin/users/${target.id}`, { role }, { token: admin.token });
    expect((await set('support')).json().user.role).toBe('support');
    expect((await set('owner')).statusCode).toBe(403);
    expect((await set('nope')).statusCode).toBe(400);
    const limited = await memberWithRole(t, await customRole(t, ['team:read', 'team:write']));
    const escalate = await t.admin('POST', `/admin/users/${limited.id}`, { role: 'admin' }, { token: limited.token });
    expect(escalate.statusCode).toBe(403);
  });
});

describe('roles', () => {
  it('lists the built-in roles and the permissions routes declare; makes, changes and deletes a custom role', async () => {
    const { roles } = (await t.admin('GET', '/admin/roles')).json();
    expect(roles.filter((r: { built_in: boolean }) => r.built_in).map((r: { id: string }) => r.id)).toEqual([
      'owner',
      'admin',
      'viewer',
      'fulfilment',
      'support',
    ]);
    const { permissions } = (await t.admin('GET', '/admin/permissions')).json();
    expect(permissions).toContainEqual({ id: 'orders:refund', resource: 'orders', action: 'refund' });

    const made = await t.admin('POST', '/admin/roles', {
      name: 'Catalog editor',
      permissions: ['products:*', 'orders:read'],
    });
    expect(made.statusCode, made.body).toBe(200);
    const role = made.json().role;
    expect(role).toMatchObject({ name: 'Catalog editor', permissions: ['orders:read', 'products:*'], built_in: false });
    const editor = await memberWithRole(t, role.id);
    expect((await t.admin('GET', '/admin/products', undefined, { token: editor.token })).statusCode).toBe(200);
    expect((await t.admin('GET', '/admin/customers', undefined, { token: editor.token })).statusCode).toBe(403);

    const bad = await t.admin('POST', '/admin/roles', { name: 'Bad', permissions: ['rockets:launch'] });
    expect(bad.statusCode).toBe(400);
    expect((await t.admin('POST', '/admin/roles', { name: 'Owner', permissions: [] })).statusCode).toBe(422);
    expect((await t.admin('POST', '/admin/roles', { name: 'All', permissions: ['*'] })).statusCode).toBe(400);
    expect((await t.admin('POST', '/admin/roles/admin', { name: 'Boss' })).statusCode).toBe(400);

    const changed = await t.admin('POST', `/admin/roles/${role.id}`, { permissions: ['products:read'] });
    expect(changed.json().role.permissions).toEqual(['products:read']);
    // Takes effect at the next request.
    expect((await t.admin('POST', '/admin/products', {}, { token: editor.token })).statusCode).toBe(403);

    expect((await t.admin('DELETE', `/admin/roles/${role.id}`)).statusCode).toBe(409);
    await t.admin('DELETE', `/admin/users/${editor.id}`);
    const gone = await t.admin('DELETE', `/admin/roles/${role.id}`);
    expect(gone.json()).toEqual({ id: role.id, object: 'role', deleted: true });
  });
});

describe('invites', () => {
  it('without an email provider the token is in the answer; accepting it creates the user with the role', async () => {
    const email = teamEmail('invitee');
    const { invite } = await sdk.admin.invite.create({ email, role: 'fulfilment' } as never);
    expect(invite).toMatchObject({ email, accepted: false, role: 'fulfilment' });
    expect(typeof invite.token).toBe('string');
    expect((await sdk.admin.invite.list()).invites.map((i) => i.email)).toContain(email);
    expect((await sdk.admin.invite.retrieve(invite.id)).invite.token).toBeNull();
    expect((await sdkFailure(sdk.admin.invite.create({ email }))).status).toBe(422);

    // The invitee is not signed in: a fresh client.
    const { dashboard: anonymous } = await medusaSdks(t);
    await anonymous.client.clearToken();
    const accepted = await anonymous.admin.invite.accept({
      invite_token: invite.token,
      first_name: 'Fran',
      password: 'invitee-password-1',
    } as never);
    expect((accepted as unknown as { user: unknown }).user).toMatchObject({
      email,
      first_name: 'Fran',
      role: 'fulfilment',
    });
    const token = await login(t, email, 'invitee-password-1');
    expect((await t.admin('GET', '/admin/orders', undefined, { token })).statusCode).toBe(200);
    expect((await t.admin('GET', '/admin/webhooks', undefined, { token })).statusCode).toBe(403);
    expect((await sdk.admin.invite.retrieve(invite.id)).invite.accepted).toBe(true);
    // invite.created and invite.accepted went out through the outbox, never with the token.
    const events = await rows<{ name: string; payload: Record<string, unknown> }>(
      t.database.db,
      sql`select name, payload from outbox where name like 'invite.%' and payload->>'id' = ${invite.id} order by id`,
    );
    expect(events.map((e) => e.name)).toEqual(['invite.created', 'invite.accepted']);
    expect(events[1].payload).toMatchObject({ email, role: 'fulfilment', user_id: expect.stringMatching(/^user_/) });
    expect(JSON.stringify(events)).not.toContain(invite.token as string);

    const again = await fetch(`${baseUrl}/admin/invites/accept?token=${invite.token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ password: 'another-password-1' }),
    });
    expect(again.status).toBe(401);
    expect(await again.json()).toEqual({
      type: 'unauthorized',
      code: 'invite_invalid',
      message: 'Invalid or expired invite',
    });
  });

  it('with a provider the link is mailed, not shown; resend replaces the token; delete withdraws it', async () => {
    const sent = installMailbox(t);
    try {
      const email = teamEmail('mailed');
      const { invite } = await sdk.admin.invite.create({ email });
      expect(invite).toMatchObject({ role: 'viewer', token: null });
      await t.workers.notifications.drain();
      const first = sent.find((m) => m.to === email && m.template === 'team.invite');
      const link = (first?.data as { invite_url?: string } | undefined)?.invite_url ?? '';
      expect(link).toMatch(/^http:\/\/shop\.test\/app\/invite\?token=[A-Za-z0-9_-]{43}$/);

      const resent = await sdk.admin.invite.resend(invite.id);
      expect(resent.invite.token).toBeNull();
      const names = await rows<{ name: string }>(
        t.database.db,
        sql`select name from outbox where payload->>'id' = ${invite.id} order by id`,
      );
      expect(names.map((e) => e.name)).toEqual(['invite.created', 'invite.resent']);
      await t.workers.notifications.drain();
      const second = sent.filter((m) => m.to === email).at(-1);
      const newLink = (second?.data as { invite_url?: string } | undefined)?.invite_url ?? '';
      expect(newLink).not.toBe(link);
      const accept = (url: string) =>
        t.inject({
          method: 'POST',
          url: `/admin/invites/accept?token=${new URL(url).searchParams.get('token')}`,
          payload: { password: 'mailed-password-1' },
        });
      expect((await accept(link)).statusCode).toBe(401); // the old link stopped working

      const deleted = await sdk.admin.invite.delete(invite.id);
      expect(deleted).toEqual({ id: invite.id, object: 'invite', deleted: true });
      expect((await accept(newLink)).statusCode).toBe(401);
    } finally {
      t.app.providers.notification.removeOwner('test');
    }
  });

  it('an invite expires after 7 days; only roles the inviter holds; bad input is 400', async () => {
    const admin = await memberWithRole(t, 'admin');
    const asOwner = await t.admin(
      'POST',
      '/admin/invites',
      { email: teamEmail(), role: 'owner' },
      { token: admin.token },
    );
    expect(asOwner.statusCode).toBe(403);
    expect((await t.admin('POST', '/admin/invites', { email: 'not-an-email' })).statusCode).toBe(400);
    expect((await t.admin('POST', '/admin/invites', { email: ADMIN.email })).statusCode).toBe(400);

    const { invite } = (await t.admin('POST', '/admin/invites', { email: teamEmail('late') })).json();
    t.clock.advance(7 * 24 * 3600_000 + 1000);
    const late = await t.inject({
      method: 'POST',
      url: `/admin/invites/accept?token=${invite.token}`,
      payload: { password: 'late-password-1' },
    });
    expect(late.statusCode).toBe(401);
  });
});
