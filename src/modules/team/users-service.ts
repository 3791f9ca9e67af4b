import { type Actor, type Ctx, inTx } from '../../platform/context.ts';
import { errors } from '../../platform/http/errors.ts';
import { findLiveUserById, lockLiveOwnerIds, softDeleteUser, type UserRow, updateUserRow } from '../auth/queries.ts';
import { createResetToken } from '../auth/reset-tokens.ts';
import { type PublicUser, toPublicUser } from '../auth/service.ts';
import { assertCanAssign, beyondActor, rolePatterns } from './roles-service.ts';

export interface UserPatch {
  first_name?: string | null;
  last_name?: string | null;
  avatar_url?: string | null;
  metadata?: Record<string, unknown> | null;
  role?: string;
}

const notFound = (id: string) => errors.notFound('user_not_found', { id });
const lastOwner = () => errors.notAllowed('last_owner');
const ownersOnly = () => errors.forbidden('owner_change_refused');

export async function getUserById(ctx: Ctx, id: string): Promise<PublicUser> {
  const row = await findLiveUserById(ctx.db, id);
  if (!row) throw notFound(id);
  return toPublicUser(row);
}

/**
 * Changes a user's profile or role. A role change: only what the actor may assign
 * (roles-service.ts), only owners touch owners, and the last owner is never demoted; the owners
 * are locked and counted in the same transaction, so two owners demoting each other cannot
 * both succeed.
 */
export async function updateUser(ctx: Ctx, actor: Actor, id: string, patch: UserPatch): Promise<PublicUser> {
  if (patch.role !== undefined) await assertCanAssign(ctx, actor, patch.role);
  return inTx(ctx, async (tctx) => {
    const owners = await lockLiveOwnerIds(tctx.tx);
    const user = await findLiveUserById(tctx.tx, id);
    if (!user) throw notFound(id);
    if (patch.role !== undefined) checkRoleChange(actor, user, patch.role, owners.length);
    const row = await updateUserRow(tctx.tx, id, patch, tctx.clock.now());
    if (!row) throw notFound(id);
    return toPublicUser(row);
  });
}

/** Removes a user (soft delete: their tokens stop at once). Never the last owner; owners only by an owner. */
export async function deleteUser(ctx: Ctx, actor: Actor, id: string): Promise<void> {
  await inTx(ctx, async (tctx) => {
    const owners = await lockLiveOwnerIds(tctx.tx);
    const user = await findLiveUserById(tctx.tx, id);
    if (!user) throw notFound(id);
    if (user.role === 'owner') {
      if (!actor.permissions.includes('*')) throw ownersOnly();
      if (owners.length <= 1) throw lastOwner();
    }
    await softDeleteUser(tctx.tx, id, tctx.clock.now());
  });
}

/** Only owners change an owner's role, and never the last owner's (`owners`: how many are left, locked). */
function checkRoleChange(actor: Actor, user: UserRow, role: string, owners: number): void {
  if (role === user.role || user.role !== 'owner') return;
  if (!actor.permissions.includes('*')) throw ownersOnly();
  if (owners <= 1) throw lastOwner();
}

/**
 * Gives users a role (it replaces the one each holds: a user holds exactly one), all or none:
 * the same rules as a role change through `updateUser`, counted across the batch, so demoting
 * both of two owners at once is refused.
 */
export async function assignRole(ctx: Ctx, actor: Actor, ids: string[], role: string): Promise<PublicUser[]> {
  await assertCanAssign(ctx, actor, role);
  return inTx(ctx, async (tctx) => {
    let owners = (await lockLiveOwnerIds(tctx.tx)).length;
    const changed: PublicUser[] = [];
    for (const id of new Set(ids)) {
      const user = await findLiveUserById(tctx.tx, id);
      if (!user) throw notFound(id);
      checkRoleChange(actor, user, role, owners);
      if (user.role === 'owner' && role !== 'owner') owners--;
      if (user.role !== 'owner' && role === 'owner') owners++;
      const row = await updateUserRow(tctx.tx, id, { role }, tctx.clock.now());
      if (!row) throw notFound(id);
      changed.push(toPublicUser(row));
    }
    return changed;
  });
}

/**
 * Takes roles away from users. A user holds exactly one role, so taking the one they hold is refused
 * (give another instead); taking one they do not hold changes nothing and succeeds.
 */
export async function unassignRoles(ctx: Ctx, pairs: { user: string; role: string }[]): Promise<void> {
  for (const { user: id, role } of pairs) {
    const user = await findLiveUserById(ctx.db, id);
    if (!user) throw notFound(id);
    if (user.role === role) throw errors.notAllowed('user_role_required', { id, role });
  }
}

/**
 * A password reset token for a team member (Medusa's `generateResetPasswordToken`), used at
 * `POST /auth/user/emailpass/update` like an emailed one (15 minutes, once). Whoever holds it
 * can take over the account, so only an actor holding everything the member's role holds gets
 * one: owners' only owners.
 */
export async function resetTokenFor(ctx: Ctx, actor: Actor, id: string): Promise<string> {
  const user = await findLiveUserById(ctx.db, id);
  if (!user) throw notFound(id);
  const exceeds = beyondActor(actor, await rolePatterns(ctx, user.role));
  if (exceeds.length) throw errors.forbidden('reset_beyond_actor', { id, permissions: exceeds.join(', ') });
  return inTx(ctx, (tctx) => createResetToken(tctx, 'user', id));
}
