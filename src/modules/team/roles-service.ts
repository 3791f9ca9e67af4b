import { executor, type Actor, type Ctx } from '../../platform/context.ts';
import { errors } from '../../platform/http/errors.ts';
import { declaredPermissions, grants } from '../../platform/http/permissions.ts';
import { newId } from '../../platform/ids.ts';
import { countUsersWithRole } from '../auth/queries.ts';
import * as q from './role-queries.ts';
import { BUILT_IN_ROLES, isBuiltInRole, permissionsOf } from './roles.ts';

export interface RoleView {
  id: string;
  name: string;
  description: string | null;
  permissions: string[];
  built_in: boolean;
  created_at: Date | null;
  updated_at: Date | null;
}

const builtInViews = (): RoleView[] =>
  Object.entries(BUILT_IN_ROLES).map(([id, r]) => ({
    id,
    name: r.name,
    description: r.description,
    permissions: [...r.permissions],
    built_in: true,
    created_at: null,
    updated_at: null,
  }));

const customView = (r: q.RoleRow): RoleView => ({ ...r, built_in: false });

/** Every permission a route declares, sorted: the rows of the panel's roles grid. */
export function permissionCatalog(): { id: string; resource: string; action: string }[] {
  return [...declaredPermissions].sort().map((id) => {
    const [resource, action] = id.split(':');
    return { id, resource, action };
  });
}

export async function listRoles(ctx: Ctx): Promise<RoleView[]> {
  return [...builtInViews(), ...(await q.listCustomRoles(executor(ctx))).map(customView)];
}

export async function getRole(ctx: Ctx, id: string): Promise<RoleView> {
  if (isBuiltInRole(id)) return builtInViews().find((r) => r.id === id)!;
  const row = await q.findRole(executor(ctx), id);
  if (!row) throw errors.notFound('role_not_found', { id });
  return customView(row);
}

/** A role's permission patterns: the built-in table's or the stored ones; 400 for a role that does not exist. */
export async function rolePatterns(ctx: Ctx, role: string): Promise<readonly string[]> {
  if (isBuiltInRole(role)) return permissionsOf(role, null);
  const row = await q.findRole(executor(ctx), role);
  if (!row) throw errors.invalid('role_unknown', { role });
  return row.permissions;
}

/** What the panel shows for a role: a built-in role's name ("Fulfilment") or the custom role's. */
export async function roleName(ctx: Ctx, role: string): Promise<string> {
  if (isBuiltInRole(role)) return BUILT_IN_ROLES[role].name;
  const row = await q.findRole(executor(ctx), role);
  return row?.name ?? role;
}

/**
 * Nobody hands out more than they hold: every pattern of the role must be granted by the actor's
 * own (so an admin can give `viewer` or `support`, never `owner`, and a custom role with
 * `team:write` cannot raise itself to admin).
 */
export async function assertCanAssign(ctx: Ctx, actor: Actor, role: string): Promise<void> {
  const exceeds = beyondActor(actor, await rolePatterns(ctx, role));
  if (exceeds.length) throw errors.forbidden('role_beyond_actor', { role, permissions: exceeds.join(', ') });
}

/** The patterns the actor's own do not grant (`*` only an owner's `*` does). */
export function beyondActor(actor: Pick<Actor, 'permissions'>, patterns: readonly string[]): string[] {
  return patterns.filter((p) => (p === '*' ? !actor.permissions.includes('*') : !grants(actor.permissions, p)));
}

/**
 * The same rule for what a role is made of: a request's actor (absent in the CLI) puts into a
 * role only patterns it holds, or team:write would let a custom role raise itself to admin.
 */
function assertCanGrant(ctx: Ctx, patterns: readonly string[]): void {
  const exceeds = ctx.actor ? beyondActor(ctx.actor, patterns) : [];
  if (exceeds.length) throw errors.forbidden('permission_beyond_actor', { permissions: exceeds.join(', ') });
}

/** Patterns of a custom role: each must match a declared permission; `*` stays the owners'. */
function validPatterns(permissions: string[]): string[] {
  const unique = [...new Set(permissions)];
  for (const p of unique) {
    if (!/^(\*|[a-z][a-z0-9_-]*):(\*|[a-z][a-z0-9_-]*)$/.test(p))
      throw errors.invalid('permission_malformed', { permission: p });
    if (!permissionCatalog().some((known) => grants([p], known.id)))
      throw errors.invalid('permission_unknown', { permission: p });
  }
  return unique.sort();
}

export async function createRole(
  ctx: Ctx,
  input: { name: string; description?: string | null; permissions: string[] },
): Promise<RoleView> {
  const db = executor(ctx);
  const permissions = validPatterns(input.permissions);
  assertCanGrant(ctx, permissions);
  await assertNameFree(db, input.name);
  const now = ctx.clock.now();
  const row = await q.insertRole(db, {
    id: newId('role'),
    name: input.name,
    description: input.description ?? null,
    permissions,
    created_at: now,
    updated_at: now,
  });
  return customView(row);
}

export async function updateRole(
  ctx: Ctx,
  id: string,
  input: { name?: string; description?: string | null; permissions?: string[] },
): Promise<RoleView> {
  if (isBuiltInRole(id)) throw errors.notAllowed('role_built_in_unchangeable', { id });
  const db = executor(ctx);
  if (input.name !== undefined) await assertNameFree(db, input.name, id);
  const permissions = input.permissions !== undefined ? validPatterns(input.permissions) : undefined;
  if (permissions) {
    // Only what is added must be the actor's: removing a pattern it lacks takes nothing from others.
    const before = (await q.findRole(db, id))?.permissions ?? [];
    assertCanGrant(
      ctx,
      permissions.filter((p) => !before.includes(p)),
    );
  }
  const patch = {
    ...(input.name !== undefined && { name: input.name }),
    ...(input.description !== undefined && { description: input.description }),
    ...(permissions && { permissions }),
  };
  const row = await q.updateRoleRow(db, id, patch, ctx.clock.now());
  if (!row) throw errors.notFound('role_not_found', { id });
  return customView(row);
}

export async function deleteRole(ctx: Ctx, id: string): Promise<void> {
  if (isBuiltInRole(id)) throw errors.notAllowed('role_built_in_undeletable', { id });
  const db = executor(ctx);
  if (!(await q.findRole(db, id))) throw errors.notFound('role_not_found', { id });
  const [users, invites] = await Promise.all([countUsersWithRole(db, id), q.countOpenInvitesWithRole(db, id)]);
  if (users || invites) throw errors.conflict('role_in_use', { id, users, invites });
  await q.deleteRoleRow(db, id);
}

async function assertNameFree(db: ReturnType<typeof executor>, name: string, self?: string) {
  const clash = await q.findRoleByName(db, name);
  const builtIn = Object.values(BUILT_IN_ROLES).some((r) => r.name.toLowerCase() === name.toLowerCase());
  if (builtIn || (clash && clash.id !== self))
    throw errors.duplicate('invalid_request_error', { detail: `A role named ${name} already exists` });
}
