import { type Actor, type Ctx, inTx } from '../../platform/context.ts';
import { errors } from '../../platform/http/errors.ts';
import { findLiveUserById, lockLiveOwnerIds, softDeleteUser, updateUserRow } from '../auth/queries.ts';
import { type PublicUser, toPublicUser } from '../auth/service.ts';
import { assertCanAssign } from './roles-service.ts';

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
    if (patch.role !== undefined && patch.role !== user.role) {
      if (user.role === 'owner' && !actor.permissions.includes('*')) throw ownersOnly();
      if (user.role === 'owner' && owners.length <= 1) throw lastOwner();
    }
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
