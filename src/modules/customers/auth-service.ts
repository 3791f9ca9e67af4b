import type { Ctx } from '../../platform/context.ts';
import { isUniqueViolation } from '../../platform/db/pg-errors.ts';
import { errors } from '../../platform/http/errors.ts';
import { newId } from '../../platform/ids.ts';
import type { LoginLimiter } from '../auth/login-limiter.ts';
import { hashPassword, verifyPassword } from '../auth/password.ts';
import { isCurrentToken, type ReissuedClaims, signToken, type ActorClaims, type TokenKeys } from '../auth/tokens.ts';
import * as q from './queries.ts';

export interface AuthDeps {
  keys: TokenKeys;
  limiter: LoginLimiter;
}

interface Credentials {
  email: string;
  password: string;
  ip: string;
}

const SCOPE = 'customer';
const identityExists = () => errors.unauthorized('identity_exists');

/** Medusa's claims for a customer login; `actor_id` stays "" until `POST /store/customers`. */
function customerClaims(identity: q.IdentityRow): ReissuedClaims {
  return {
    actor_id: identity.customer_id ?? '',
    actor_type: 'customer',
    auth_identity_id: identity.id,
    auth_provider: 'emailpass',
    app_metadata: identity.customer_id ? { customer_id: identity.customer_id } : {},
    user_metadata: {},
    token_version: identity.token_version,
  };
}

function customerToken(deps: AuthDeps, ctx: Ctx, identity: q.IdentityRow): Promise<string> {
  return signToken(deps.keys, ctx.clock, customerClaims(identity));
}

/**
 * A refresh's claims (`POST /auth/token/refresh`): the login's as they are now (its customer
 * once `POST /store/customers` made one), or null when a password change revoked the token.
 */
export async function reissueCustomerClaims(ctx: Ctx, claims: ActorClaims): Promise<ReissuedClaims | null> {
  const identity = await q.findIdentityById(ctx.db, claims.auth_identity_id);
  return identity && isCurrentToken(claims, identity.token_version) ? customerClaims(identity) : null;
}

/** True when the token's login exists and no password change revoked the token since (`POST /auth/session`). */
export async function customerTokenIsCurrent(ctx: Ctx, claims: ActorClaims): Promise<boolean> {
  const version = await q.findIdentityTokenVersion(ctx.db, claims.auth_identity_id);
  return version !== undefined && isCurrentToken(claims, version);
}

/**
 * `POST /auth/customer/emailpass/register`. A new email gets a login without a customer. An
 * existing login without a customer is taken back when the password matches (Medusa's rule);
 * that check counts towards the brute-force limit like a login, since it reveals the password.
 */
export async function registerCustomer(ctx: Ctx, deps: AuthDeps, input: Credentials): Promise<string> {
  await deps.limiter.takeRegistration(input.ip);
  const email = input.email.toLowerCase();
  const existing = await q.findIdentityByEmail(ctx.db, email);
  if (existing) {
    if (existing.customer_id) throw identityExists();
    const ok = await deps.limiter.check(SCOPE, email, input.ip, () =>
      verifyPassword(existing.password_hash, input.password),
    );
    if (!ok) throw identityExists();
    return customerToken(deps, ctx, existing);
  }
  const now = ctx.clock.now();
  const values = {
    id: newId('authid'),
    email,
    password_hash: await hashPassword(input.password),
    created_at: now,
    updated_at: now,
  };
  try {
    return customerToken(deps, ctx, await q.insertIdentity(ctx.db, values));
  } catch (err) {
    // Two registrations of one email at once: the unique index lets one through.
    throw isUniqueViolation(err) ? identityExists() : err;
  }
}

/**
 * `POST /auth/customer/emailpass`, with the admin login's protections: the same limiter (scope
 * 'customer'), a full argon2 verify for unknown emails, one message for both failures.
 */
export async function loginCustomer(ctx: Ctx, deps: AuthDeps, input: Credentials): Promise<string> {
  let identity: q.IdentityRow | undefined;
  const ok = await deps.limiter.check(SCOPE, input.email, input.ip, async () => {
    identity = await q.findIdentityByEmail(ctx.db, input.email);
    return (await verifyPassword(identity?.password_hash ?? null, input.password)) && !!identity;
  });
  if (!ok || !identity) throw errors.unauthorized('invalid_credentials');
  return customerToken(deps, ctx, identity);
}
