import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { medusaSdks, type Sdk, sdkFailure } from '../../../test/medusa-sdk.ts';
import { customRole, login, memberWithRole } from './team.testing.ts';

/**
 * Medusa's RBAC contract (`sdk.admin.rbacRole`, `sdk.admin.rbacPolicy`, the user role methods)
 * over our roles: a policy is a permission pattern, a role our role, its users the users holding
 * it. The same rules as `/admin/roles` and `/admin/users` hold: nobody grants or assigns more
 * than they hold, built-in roles stay, the last owner keeps the role.
 */
let t: TestApp;
let sdk: Sdk;
beforeAll(async () => {
  t = await startTestApp();
  ({ dashboard: sdk } = await medusaSdks(t));
});
afterAll(() => t.close());

/** An SDK signed in with another token. */
async function sdkAs(token: string): Promise<Sdk> {
  const { dashboard } = await medusaSdks(t);
  await dashboard.client.setToken(token);
  return dashboard;
}

const code = async (method: string, url: string, body?: unknown, token?: string) => {
  const res = await t.admin(method, url, body as never, token ? { token } : {});
  return { status: res.statusCode, code: res.statusCode >= 400 ? res.json().code : undefined };
};

describe('policies', () => {
  it('are the declared permissions and the wildcards over them; they cannot be made, changed or deleted', async () => {
    const { policies, count } = await sdk.admin.rbacPolicy.list({ limit: 1000 });
    const keys = policies.map((p) => p.key);
    expect(count).toBe(policies.length);
    expect(keys).toEqual(expect.arrayContaining(['orders:read', 'orders:refund', 'orders:*', '*:read', '*:*']));
    const { policy } = await sdk.admin.rbacPolicy.retrieve('orders:refund');
    expect(policy).toMatchObject({
      id: 'orders:refund',
      key: 'orders:refund',
      resource: 'orders',
      operation: 'refund',
    });
    expect((await sdk.admin.rbacPolicy.list({ resource: 'orders' } as never)).policies.map((p) => p.key)).toContain(
      'orders:refund',
    );
    expect((await sdkFailure(sdk.admin.rbacPolicy.retrieve('rockets:launch'))).status).toBe(404);

    const readers = await sdk.admin.rbacPolicy.listRoles('*:read');
    expect(readers.roles.map((r) => r.id)).toEqual(['viewer']);

    for (const refused of [
      () => sdk.admin.rbacPolicy.create({ key: 'rockets:launch', resource: 'rockets', operation: 'launch' }),
      () => sdk.admin.rbacPolicy.update('orders:read', { name: 'Orders' }),
      () => sdk.admin.rbacPolicy.delete('orders:read'),
    ])
      expect((await sdkFailure(refused())).status).toBe(400);
    expect(await code('DELETE', '/admin/rbac/policies/orders:read')).toEqual({
      status: 400,
      code: 'policy_declared_by_routes',
    });
  });
});

describe('roles', () => {
  it('lists the built-in roles with their policies; makes, changes and deletes a custom role', async () => {
    const { roles } = await sdk.admin.rbacRole.list();
    expect(roles.map((r) => r.id).slice(0, 5)).toEqual(['owner', 'admin', 'viewer', 'fulfilment', 'support']);
    expect(roles[0]).toMatchObject({ name: 'Owner', parent_id: null, deleted_at: null });
    expect(roles[0].policies?.map((p) => p.key)).toEqual(['*']);
    expect((await sdk.admin.rbacRole.list({ q: 'fulf' })).roles.map((r) => r.id)).toEqual(['fulfilment']);

    const { role } = await sdk.admin.rbacRole.create({
      name: 'Catalog editor',
      description: 'Products',
      policy_ids: ['products:*'],
    });
    expect(role).toMatchObject({ name: 'Catalog editor', description: 'Products', parent_id: null });
    expect(role.policies?.map((p) => p.key)).toEqual(['products:*']);
    // The same role through our own route: one model underneath.
    expect((await t.admin('GET', `/admin/roles/${role.id}`)).json().role.permissions).toEqual(['products:*']);

    const editor = await memberWithRole(t, role.id, 'editor');
    expect((await t.admin('GET', '/admin/orders', undefined, { token: editor.token })).statusCode).toBe(403);
    const added = await sdk.admin.rbacRole.addPolicies(role.id, { policies: ['orders:read'] });
    expect(added.policies.map((p) => p.key)).toEqual(['orders:read', 'products:*']);
    expect((await t.admin('GET', '/admin/orders', undefined, { token: editor.token })).statusCode).toBe(200);
    expect((await sdk.admin.rbacRole.listPolicies(role.id)).policies.map((p) => p.key)).toEqual([
      'orders:read',
      'products:*',
    ]);
    expect(await sdk.admin.rbacRole.removePolicy(role.id, 'orders:read')).toEqual({
      id: 'orders:read',
      object: 'rbac_policy',
      deleted: true,
    });
    expect((await t.admin('GET', '/admin/orders', undefined, { token: editor.token })).statusCode).toBe(403);

    const renamed = await sdk.admin.rbacRole.update(role.id, { name: 'Catalogue editor' });
    expect(renamed.role).toMatchObject({ name: 'Catalogue editor', description: 'Products' });
    expect((await sdk.admin.rbacRole.retrieve(role.id)).role.name).toBe('Catalogue editor');

    expect(await code('POST', `/admin/rbac/roles/${role.id}`, { parent_id: 'admin' })).toEqual({
      status: 400,
      code: 'rbac_field_unsupported',
    });
    expect(await code('POST', '/admin/rbac/roles/admin', { name: 'Boss' })).toEqual({
      status: 400,
      code: 'role_built_in_unchangeable',
    });
    expect(await code('POST', '/admin/rbac/roles/viewer/policies', { policies: ['orders:write'] })).toEqual({
      status: 400,
      code: 'role_built_in_unchangeable',
    });
    expect(await code('POST', '/admin/rbac/roles', { name: 'Bad', policy_ids: ['rockets:launch'] })).toEqual({
      status: 404,
      code: 'policy_not_found',
    });
    expect((await sdkFailure(sdk.admin.rbacRole.create({ name: 'Owner' }))).status).toBe(422);

    expect((await sdkFailure(sdk.admin.rbacRole.delete(role.id))).status).toBe(409);
    await sdk.admin.user.delete(editor.id);
    expect(await sdk.admin.rbacRole.delete(role.id)).toEqual({ id: role.id, object: 'rbac_role', deleted: true });
    expect((await sdkFailure(sdk.admin.rbacRole.retrieve(role.id))).status).toBe(404);
  });
});

describe('role users and user roles', () => {
  it('a user holds one role: adding one replaces it, taking the held one is refused', async () => {
    const member = await memberWithRole(t, 'viewer', 'roles');
    const { users } = await sdk.admin.rbacRole.addUsers('support', { users: [member.id] });
    expect(users.map((u) => [u.id, (u as unknown as { role: string }).role])).toEqual([[member.id, 'support']]);
    const holders = await sdk.admin.rbacRole.listUsers('support', { user_id: [member.id] });
    expect(holders.users.map((u) => u.id)).toEqual([member.id]);
    expect(holders.count).toBe(1);

    // The SDK types this answer as its query parameters; it is Medusa's paged list of roles.
    const held = (await sdk.admin.user.listRoles(member.id)) as unknown as { roles: { id: string }[]; count: number };
    expect(held.roles.map((r) => r.id)).toEqual(['support']);
    expect(held.count).toBe(1);

    expect(await code('POST', `/admin/users/${member.id}/roles`, { roles: ['viewer', 'support'] })).toEqual({
      status: 400,
      code: 'user_roles_single',
    });
    const swapped = await sdk.admin.user.addRoles(member.id, { roles: ['fulfilment'] });
    expect(swapped.roles.map((r) => r.id)).toEqual(['fulfilment']);
    // The dashboard's swap: add the new role, then remove the old one (no longer held: nothing to do).
    expect(await sdk.admin.user.removeRole(member.id, 'support')).toEqual({
      id: 'support',
      object: 'user_role',
      deleted: true,
    });
    expect(await code('DELETE', `/admin/users/${member.id}/roles/fulfilment`)).toEqual({
      status: 400,
      code: 'user_role_required',
    });
    expect((await sdkFailure(sdk.admin.user.removeRoles(member.id, { roles: ['fulfilment'] }))).status).toBe(400);
    expect((await sdkFailure(sdk.admin.rbacRole.removeUsers('fulfilment', { users: [member.id] }))).status).toBe(400);
    expect(await sdk.admin.rbacRole.removeUsers('viewer', { users: [member.id] })).toEqual({
      ids: [member.id],
      object: 'role_user',
      deleted: true,
    });
    expect((await sdk.admin.user.retrieve(member.id)).user).toMatchObject({ role: 'fulfilment' });
    // The token's next request already carries the new role.
    expect((await t.admin('GET', '/admin/orders', undefined, { token: member.token })).statusCode).toBe(200);
    expect((await t.admin('GET', '/admin/webhooks', undefined, { token: member.token })).statusCode).toBe(403);
    expect((await sdkFailure(sdk.admin.user.listRoles('user_missing'))).status).toBe(404);
  });

  it('the last owner keeps the role through every route; only owners make owners', async () => {
    const ownerId = (await sdk.admin.user.me()).user.id;
    expect(await code('POST', `/admin/users/${ownerId}/roles`, { roles: ['admin'] })).toEqual({
      status: 400,
      code: 'last_owner',
    });
    expect(await code('POST', '/admin/rbac/roles/admin/users', { users: [ownerId] })).toEqual({
      status: 400,
      code: 'last_owner',
    });
    expect((await sdk.admin.user.me()).user).toMatchObject({ role: 'owner' });

    const admin = await memberWithRole(t, 'admin', 'admin');
    const asAdmin = await sdkAs(admin.token);
    expect((await sdkFailure(asAdmin.admin.rbacRole.addUsers('owner', { users: [admin.id] }))).status).toBe(403);
    expect((await sdkFailure(asAdmin.admin.user.addRoles(ownerId, { roles: ['admin'] }))).status).toBe(403);

    // Two owners demoted in one call: the batch is counted, and nothing changes.
    const second = await memberWithRole(t, 'owner', 'second-owner');
    expect(await code('POST', '/admin/rbac/roles/admin/users', { users: [second.id, ownerId] })).toEqual({
      status: 400,
      code: 'last_owner',
    });
    expect((await sdk.admin.user.retrieve(second.id)).user).toMatchObject({ role: 'owner' });
    await sdk.admin.rbacRole.addUsers('admin', { users: [second.id] });
    expect((await sdk.admin.user.retrieve(second.id)).user).toMatchObject({ role: 'admin' });
  });
});

describe('permission checks', () => {
  it('a team manager grants and assigns only what it holds; a role lacking team:write gets 403', async () => {
    const managerRole = await customRole(t, ['team:read', 'team:write', 'orders:read']);
    const manager = await memberWithRole(t, managerRole, 'manager');
    const asManager = await sdkAs(manager.token);

    const mine = (await asManager.admin.rbacRole.mePermissions()) as unknown as {
      permissions: string[];
      roles: { id: string }[];
      covered_roles: string[];
    };
    expect(mine.permissions).toEqual(['orders:read', 'team:read', 'team:write']);
    expect(mine.roles.map((r) => r.id)).toEqual([managerRole]);
    expect(mine.covered_roles).not.toContain('Viewer');
    const owners = await sdk.admin.rbacRole.mePermissions();
    expect(owners.permissions).toEqual(expect.arrayContaining(['orders:refund', 'team:write', 'products:read']));
    expect(owners.permissions.every((p) => !p.includes('*'))).toBe(true);
    expect((await asManager.admin.rbacPolicy.listAssignable()).policies.map((p) => p.key)).toEqual([
      'orders:read',
      'team:read',
      'team:write',
    ]);
    const assignable = (await asManager.admin.rbacRole.listAssignable()).roles.map((r) => r.id);
    expect(assignable).toContain(managerRole);
    expect(assignable).not.toContain('viewer');
    expect(assignable).not.toContain('admin');

    const made = await asManager.admin.rbacRole.create({ name: 'Order reader', policy_ids: ['orders:read'] });
    expect(made.role.policies?.map((p) => p.key)).toEqual(['orders:read']);
    for (const [method, url, body] of [
      ['POST', '/admin/rbac/roles', { name: 'Wider', policy_ids: ['products:write'] }],
      ['POST', `/admin/rbac/roles/${managerRole}/policies`, { policies: ['*:*'] }],
      ['POST', `/admin/roles/${managerRole}`, { permissions: ['*:*'] }],
    ] as const)
      expect(await code(method, url, body, manager.token)).toEqual({ status: 403, code: 'permission_beyond_actor' });
    expect(await code('POST', '/admin/rbac/roles/admin/users', { users: [manager.id] }, manager.token)).toEqual({
      status: 403,
      code: 'role_beyond_actor',
    });
    expect((await sdk.admin.user.retrieve(manager.id)).user).toMatchObject({ role: managerRole });

    const reader = await memberWithRole(t, await customRole(t, ['team:read']), 'reader');
    const asReader = await sdkAs(reader.token);
    expect((await asReader.admin.rbacRole.list()).count).toBeGreaterThan(5);
    expect((await sdkFailure(asReader.admin.rbacRole.create({ name: 'Nope' }))).status).toBe(403);
    expect((await sdkFailure(asReader.admin.user.addRoles(reader.id, { roles: ['admin'] }))).status).toBe(403);
    expect((await asReader.admin.rbacRole.mePermissions()).permissions).toEqual(['team:read']);
  });
});

describe('sign-in providers and reset tokens', () => {
  it('lists email and password; an owner hands out a reset token that sets a new password once', async () => {
    const member = await memberWithRole(t, 'support', 'reset');
    expect(await sdk.admin.user.listAuthProviders(member.id)).toEqual({ providers: ['emailpass'] });
    expect((await sdk.auth.listProviders('user')).providers).toEqual([
      { id: 'emailpass', identifier: 'emailpass', display_name: 'Email and password', flow: 'credentials' },
    ]);

    const { token } = await sdk.admin.user.generateResetPasswordToken(member.id);
    const update = (password: string) =>
      t.inject({
        method: 'POST',
        url: '/auth/user/emailpass/update',
        headers: { authorization: `Bearer ${token}` },
        payload: { password },
      });
    expect((await update('reset-by-owner-1')).statusCode).toBe(200);
    expect((await update('reset-by-owner-2')).statusCode).toBe(401);
    await login(t, member.email, 'reset-by-owner-1');
    // The old token stopped working with the old password.
    expect((await t.admin('GET', '/admin/users/me', undefined, { token: member.token })).statusCode).toBe(401);

    // Taking over an account needs everything it holds: an admin cannot for an owner.
    const admin = await memberWithRole(t, 'admin', 'admin-reset');
    const ownerId = (await sdk.admin.user.me()).user.id;
    expect(await code('POST', `/admin/users/${ownerId}/reset-password`, undefined, admin.token)).toEqual({
      status: 403,
      code: 'reset_beyond_actor',
    });
    expect(await code('POST', `/admin/users/${member.id}/reset-password`, undefined, admin.token)).toEqual({
      status: 200,
      code: undefined,
    });
    expect(await code('POST', '/admin/users/user_missing/reset-password')).toEqual({
      status: 404,
      code: 'user_not_found',
    });
  });
});
