import { executor, type Ctx, type Role } from '../../platform/context.ts';
import { errors } from '../../platform/http/errors.ts';
import { newId } from '../../platform/ids.ts';
import type { LoginLimiter } from './login-limiter.ts';
import { hashPassword, verifyPassword } from './password.ts';
import {
  countUsers,
  findLiveUserByEmail,
  findUserAccess,
  findLiveUserById,
  insertUser,
  listLiveUsers,
  type UserRow,
} from './queries.ts';
import {
  isCurrentToken,
  type ReissuedClaims,
  signToken,
  userAuthIdentityId,
  type ActorClaims,
  type TokenKeys,
} from './tokens.ts';

export interface PublicUser {
  id: string;
  email: string;
  role: Role;
  first_name: string | null;
  last_name: string | null;
  avatar_url: string | null;
  metadata: Record<string, unknown> | null;
  created_at: Date;
  updated_at: Date;
}

export function toPublicUser(u: UserRow): PublicUser {
  const { password_hash: _hash, deleted_at: _deleted, token_version: _version, ...rest } = u;
  return rest;
}

/**
 * Email + password login for admin users. Unknown email and wrong password take the same
 * path (a full argon2 verify) and give the same 401, so neither timing nor message tells them apart.
 */
export async function loginUser(
  ctx: Ctx,
  deps: { keys: TokenKeys; limiter: LoginLimiter },
  input: { email: string; password: string; ip: string },
): Promise<string> {
  let user: UserRow | undefined;
  const ok = await deps.limiter.check('user', input.email, input.ip, async () => {
    user = await findLiveUserByEmail(ctx.db, input.email);
    return (await verifyPassword(user?.password_hash ?? null, input.password)) && !!user;
  });
  if (!ok || !user) throw errors.unauthorized('invalid_credentials');
  return signToken(deps.keys, ctx.clock, userClaims(user));
}

function userClaims(user: UserRow): ReissuedClaims {
  return {
    actor_id: user.id,
    actor_type: 'user',
    auth_identity_id: userAuthIdentityId(user.id),
    auth_provider: 'emailpass',
    app_metadata: { user_id: user.id, roles: [user.role] },
    user_metadata: {},
    token_version: user.token_version,
  };
}

/** A refresh's claims (`POST /auth/token/refresh`): the user's as they are now, or null when gone or revoked. */
export async function reissueUserClaims(ctx: Ctx, claims: ActorClaims): Promise<ReissuedClaims | null> {
  const user = await findLiveUserById(ctx.db, claims.actor_id);
  return user && isCurrentToken(claims, user.token_version) ? userClaims(user) : null;
}

export async function createUser(
  ctx: Ctx,
  input: {
    email: string;
    password: string;
    role: Role;
    passwordHash?: string;
    first_name?: string | null;
    last_name?: string | null;
  },
): Promise<PublicUser> {
  const db = executor(ctx);
  if (await findLiveUserByEmail(db, input.email)) throw errors.invalid('user_email_taken', { email: input.email });
  const now = ctx.clock.now();
  const row = await insertUser(db, {
    id: newId('user'),
    email: input.email.toLowerCase(),
    password_hash: input.passwordHash ?? (await hashPassword(input.password)),
    role: input.role,
    first_name: input.first_name ?? null,
    last_name: input.last_name ?? null,
    created_at: now,
    updated_at: now,
  });
  return toPublicUser(row);
}

export async function listUsers(
  ctx: Ctx,
  page: { limit: number; offset: number },
): Promise<{ users: PublicUser[]; count: number }> {
  const [rows, count] = await Promise.all([listLiveUsers(ctx.db, page), countUsers(ctx.db)]);
  return { users: rows.map(toPublicUser), count };
}

export async function getUser(ctx: Ctx, id: string): Promise<PublicUser> {
  const user = await findLiveUserById(ctx.db, id);
  if (!user) throw errors.unauthorized('unauthorized');
  return toPublicUser(user);
}

/** The live user a token names, unless a password change revoked the token since; else 401. */
export async function getUserOfToken(ctx: Ctx, claims: ActorClaims): Promise<PublicUser> {
  const user = await findLiveUserById(ctx.db, claims.actor_id);
  if (!user || !isCurrentToken(claims, user.token_version)) throw errors.unauthorized('unauthorized');
  return toPublicUser(user);
}

/** True when the token's user is live and no password change revoked the token since. */
export async function userTokenIsCurrent(ctx: Ctx, claims: ActorClaims): Promise<boolean> {
  const user = await findUserAccess(ctx.db, claims.actor_id);
  return !!user && isCurrentToken(claims, user.token_version);
}

/** `ADMIN_EMAIL` + `ADMIN_PASSWORD`: create that admin at start when no live user has the email. */
export async function ensureBootstrapAdmin(ctx: Ctx, email?: string, password?: string): Promise<PublicUser | null> {
  if (!email || !password) return null;
  if (await findLiveUserByEmail(ctx.db, email)) return null;
  // The first user owns the shop: only an owner may make or remove owners.
  return createUser(ctx, { email, password, role: 'owner' });
}
