import { SignJWT, jwtVerify } from 'jose';
import type { Clock } from '../../platform/clock.ts';

export type ActorType = 'user' | 'customer';

/** Medusa v2's claims, so its SDK and storefronts read our tokens as theirs. */
export interface ActorClaims {
  actor_id: string;
  actor_type: ActorType;
  auth_identity_id: string;
  auth_provider: 'emailpass';
  app_metadata: Record<string, unknown>;
  user_metadata: Record<string, unknown>;
  /**
   * The login's `token_version` when the token was issued (ours, not Medusa's). A password change
   * raises the version, which revokes every older token and the sessions made from them. Absent
   * in tokens issued before versions existed: read as 0.
   */
  token_version?: number;
  iat?: number;
  exp?: number;
}

export interface TokenKeys {
  secret: Uint8Array;
  expiresInSeconds: number;
}

export function tokenKeys(jwtSecret: string, expiresInSeconds: number): TokenKeys {
  return { secret: new TextEncoder().encode(jwtSecret), expiresInSeconds };
}

export async function signToken(
  keys: TokenKeys,
  clock: Clock,
  claims: Omit<ActorClaims, 'iat' | 'exp' | 'token_version'> & { token_version: number },
): Promise<string> {
  const now = Math.floor(clock.now().getTime() / 1000);
  return new SignJWT({ ...claims })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(now)
    .setExpirationTime(now + keys.expiresInSeconds)
    .sign(keys.secret);
}

/**
 * The claims of a valid, unexpired HS256 token signed with our secret; null otherwise.
 * `exp` is required: a token without one would be valid forever once it leaked.
 */
export async function verifyToken(keys: TokenKeys, clock: Clock, token: string): Promise<ActorClaims | null> {
  try {
    const { payload } = await jwtVerify(token, keys.secret, {
      algorithms: ['HS256'],
      currentDate: clock.now(),
      requiredClaims: ['exp'],
    });
    if (typeof payload.actor_type !== 'string' || typeof payload.actor_id !== 'string') return null;
    return payload as unknown as ActorClaims;
  } catch {
    return null;
  }
}

/** True while no password change has revoked the token (its version is the login's current one). */
export function isCurrentToken(claims: Pick<ActorClaims, 'token_version'>, currentVersion: number): boolean {
  return (claims.token_version ?? 0) === currentVersion;
}

/** An admin user's `auth_identity_id` claim (Medusa's tokens name an auth identity; ours derive it from the user). */
export function userAuthIdentityId(userId: string): string {
  return userId.replace(/^user_/, 'authid_');
}

/** The token of an `Authorization: Bearer <token>` header, or null. */
export function bearerToken(header: string | undefined): string | null {
  const [scheme, value] = (header ?? '').split(' ', 2);
  return scheme?.toLowerCase() === 'bearer' && value ? value : null;
}
