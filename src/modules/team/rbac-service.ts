import { type Actor, type Ctx, inTx } from '../../platform/context.ts';
import { errors } from '../../platform/http/errors.ts';
import { grants } from '../../platform/http/permissions.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { findLiveUserById, listLiveUsersWithRole } from '../auth/queries.ts';
import { type PublicUser, toPublicUser } from '../auth/service.ts';
import { type PolicyFilter, type PolicyView, getPolicy, matchesPolicy, policyView } from './rbac-policies.ts';
import * as q from './role-queries.ts';
import {
  beyondActor,
  createRole,
  deleteRole,
  getRole,
  listRoles,
  permissionCatalog,
  type RoleView,
  updateRole,
} from './roles-service.ts';
import { assignRole, unassignRoles } from './users-service.ts';

/**
 * Medusa's RBAC contract (`/admin/rbac/*`, `/admin/users/:id/roles`) over our one model: a Medusa
 * role is our role (built-in or custom), its policies are the role's permission patterns, and
 * its users are the users holding it. Every write goes through roles-service and users-service,
 * so their rules hold here too: nobody grants or assigns more than they hold, built-in roles do
 * not change, a role in use is not deleted, and the last owner keeps the role.
 */
export interface RbacRoleView {
  id: string;
  name: string;
  description: string | null;
  parent_id: null;
  metadata: null;
  policies: PolicyView[];
  built_in: boolean;
  created_at: Date | null;
  updated_at: Date | null;
  deleted_at: null;
}

export const rbacRole = (r: RoleView): RbacRoleView => ({
  id: r.id,
  name: r.name,
  description: r.description,
  parent_id: null,
  metadata: null,
  policies: r.permissions.map(policyView),
  built_in: r.built_in,
  created_at: r.created_at,
  updated_at: r.updated_at,
  deleted_at: null,
});

export interface RoleFilter {
  q?: string;
  id?: string[];
  name?: string[];
}

const pageOfList = <T>(all: T[], page: Page) => ({
  items: all.slice(page.offset, page.offset + page.limit),
  count: all.length,
});

export async function listRbacRoles(ctx: Ctx, f: RoleFilter, page: Page) {
  const roles = (await listRoles(ctx)).filter(
    (r) =>
      (!f.q || r.name.toLowerCase().includes(f.q.toLowerCase())) &&
      (!f.id || f.id.includes(r.id)) &&
      (!f.name || f.name.includes(r.name)),
  );
  const { items, count } = pageOfList(roles, page);
  return { roles: items.map(rbacRole), count };
}

export const getRbacRole = async (ctx: Ctx, id: string) => rbacRole(await getRole(ctx, id));

/** What our roles do not have: a parent (no inheritance) and metadata. */
function refuseUnsupported(input: { parent_id?: string | null; metadata?: Record<string, unknown> | null }) {
  if (input.parent_id)
    throw errors.invalid('rbac_field_unsupported', { field: 'parent_id', reason: 'roles do not inherit' });
  if (input.metadata && Object.keys(input.metadata).length)
    throw errors.invalid('rbac_field_unsupported', { field: 'metadata', reason: 'roles keep no metadata' });
}

export async function createRbacRole(
  ctx: Ctx,
  input: {
    name: string;
    description?: string | null;
    parent_id?: string | null;
    metadata?: Record<string, unknown> | null;
    policy_ids?: string[];
  },
) {
  refuseUnsupported(input);
  for (const id of input.policy_ids ?? []) getPolicy(id);
  const role = await createRole(ctx, {
    name: input.name,
    description: input.description,
    permissions: input.policy_ids ?? [],
  });
  return rbacRole(role);
}

export async function updateRbacRole(
  ctx: Ctx,
  id: string,
  input: {
    name?: string;
    description?: string | null;
    parent_id?: string | null;
    metadata?: Record<string, unknown> | null;
  },
) {
  refuseUnsupported(input);
  return rbacRole(await updateRole(ctx, id, { name: input.name, description: input.description }));
}

export const deleteRbacRole = (ctx: Ctx, id: string) => deleteRole(ctx, id);

export async function listRolePolicies(ctx: Ctx, roleId: string, f: PolicyFilter, page: Page) {
  const policies = (await getRole(ctx, roleId)).permissions.map(policyView).filter((p) => matchesPolicy(p, f));
  const { items, count } = pageOfList(policies, page);
  return { policies: items, count };
}

/**
 * Adds policies to a custom role, or takes one away: the role is locked while its patterns are
 * read and written back, so two changes at once both land.
 */
async function changePolicies(ctx: Ctx, roleId: string, change: (current: string[]) => string[]): Promise<RoleView> {
  const role = await getRole(ctx, roleId);
  if (role.built_in) throw errors.notAllowed('role_built_in_unchangeable', { id: roleId });
  return inTx(ctx, async (tctx) => {
    const row = await q.lockRole(tctx.tx, roleId);
    if (!row) throw errors.notFound('role_not_found', { id: roleId });
    return updateRole(tctx, roleId, { permissions: change(row.permissions) });
  });
}

export async function addRolePolicies(ctx: Ctx, roleId: string, policyIds: string[]) {
  for (const id of policyIds) getPolicy(id);
  const role = await changePolicies(ctx, roleId, (current) => [...current, ...policyIds]);
  return { policies: role.permissions.map(policyView), count: role.permissions.length };
}

export async function removeRolePolicy(ctx: Ctx, roleId: string, policyId: string): Promise<void> {
  getPolicy(policyId);
  // Taking away a policy the role does not hold changes nothing (deletes are idempotent).
  await changePolicies(ctx, roleId, (current) => current.filter((p) => p !== policyId));
}

/** The roles holding a policy (its key among their patterns). */
export async function listPolicyRoles(ctx: Ctx, policyId: string, page: Page) {
  getPolicy(policyId);
  const roles = (await listRoles(ctx)).filter((r) => r.permissions.includes(policyId));
  const { items, count } = pageOfList(roles, page);
  return { roles: items.map(rbacRole), count };
}

export async function listRoleUsers(
  ctx: Ctx,
  roleId: string,
  userIds: string[] | undefined,
  page: Page,
): Promise<{ users: PublicUser[]; count: number }> {
  await getRole(ctx, roleId);
  const { rows, count } = await listLiveUsersWithRole(ctx.db, roleId, page, userIds);
  return { users: rows.map(toPublicUser), count };
}

export async function addRoleUsers(ctx: Ctx, actor: Actor, roleId: string, userIds: string[]) {
  await getRole(ctx, roleId);
  return assignRole(ctx, actor, userIds, roleId);
}

export async function removeRoleUsers(ctx: Ctx, roleId: string, userIds: string[]): Promise<void> {
  await getRole(ctx, roleId);
  await unassignRoles(
    ctx,
    userIds.map((user) => ({ user, role: roleId })),
  );
}

/** A user's roles: the one they hold, as Medusa's list. */
export async function listUserRoles(ctx: Ctx, userId: string, roleIds: string[] | undefined, page: Page) {
  const user = await findLiveUserById(ctx.db, userId);
  if (!user) throw errors.notFound('user_not_found', { id: userId });
  const held = roleIds && !roleIds.includes(user.role) ? [] : [await getRbacRole(ctx, user.role)];
  const { items, count } = pageOfList(held, page);
  return { roles: items, count };
}

/** Gives a user a role (one: it replaces the one they hold); the user's roles afterwards. */
export async function addUserRoles(ctx: Ctx, actor: Actor, userId: string, roleIds: string[]) {
  const distinct = [...new Set(roleIds)];
  if (distinct.length !== 1) throw errors.invalid('user_roles_single');
  await getRole(ctx, distinct[0]);
  await assignRole(ctx, actor, [userId], distinct[0]);
  return { roles: [await getRbacRole(ctx, distinct[0])] };
}

export async function removeUserRoles(ctx: Ctx, userId: string, roleIds: string[]): Promise<void> {
  await unassignRoles(
    ctx,
    roleIds.map((role) => ({ user: userId, role })),
  );
}

/** The roles the actor could give someone: those holding nothing the actor lacks (assertCanAssign's rule). */
export async function listAssignableRoles(ctx: Ctx, actor: Actor, f: RoleFilter) {
  const { roles } = await listRbacRoles(ctx, f, { limit: Number.MAX_SAFE_INTEGER, offset: 0 });
  const assignable = roles
    .filter(
      (r) =>
        beyondActor(
          actor,
          r.policies.map((p) => p.key),
        ).length === 0,
    )
    .map((r) => ({ id: r.id, name: r.name, description: r.description }));
  return { roles: assignable, count: assignable.length };
}

/**
 * What the signed-in actor may do, as Medusa's dashboard reads it: every declared permission its
 * patterns grant (wildcards expanded), its role, and the names of the roles its patterns cover.
 */
export async function myPermissions(ctx: Ctx, actor: Actor) {
  const roles = await listRoles(ctx);
  return {
    permissions: permissionCatalog()
      .map((p) => p.id)
      .filter((id) => grants(actor.permissions, id)),
    roles: roles.filter((r) => r.id === actor.role).map((r) => ({ id: r.id, name: r.name })),
    covered_roles: roles.filter((r) => beyondActor(actor, r.permissions).length === 0).map((r) => r.name),
  };
}
