import { createHash } from 'node:crypto';
import { SignJWT, decodeProtectedHeader, jwtVerify } from 'jose';
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

/** A signing key and its id (`kid` in the token's header): a hash of the secret, never the secret. */
export interface TokenKey {
  kid: string;
  secret: Uint8Array;
}

export interface TokenKeys {
  /** Signs every new token. */
  current: TokenKey;
  /** JWT_SECRET_PREVIOUS during a rotation: still verifies the tokens it signed until removed. */
  previous?: TokenKey;
  expiresInSeconds: number;
}

/** The id of a secret: its first 8 bytes of SHA-256, so instances agree on it without configuration. */
export function keyId(secret: string): string {
  return createHash('sha256').update(`jwt-kid:${secret}`).digest('base64url').slice(0, 11);
}

const key = (secret: string): TokenKey => ({ kid: keyId(secret), secret: new TextEncoder().encode(secret) });

export function tokenKeys(jwtSecret: string, expiresInSeconds: number, previousSecret?: string): TokenKeys {
  return {
    current: key(jwtSecret),
    previous: previousSecret ? key(previousSecret) : undefined,
    expiresInSeconds,
  };
}

/** What a new token says: the claims but its times, with the login's current token version. */
export type ReissuedClaims = Omit<ActorClaims, 'iat' | 'exp' | 'token_version'> & { token_version: number };

/** `notAfter` (seconds since the epoch): the token expires then at the latest (a refresh keeps its token's end). */
export async function signToken(
  keys: TokenKeys,
  clock: Clock,
  claims: ReissuedClaims,
  notAfter = Number.POSITIVE_INFINITY,
): Promise<string> {
  const now = Math.floor(clock.now().getTime() / 1000);
  return new SignJWT({ ...claims })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: keys.current.kid })
    .setIssuedAt(now)
    .setExpirationTime(Math.min(now + keys.expiresInSeconds, notAfter))
    .sign(keys.current.secret);
}

/**
 * The keys a token may be verified with: the one its `kid` names, or, for a token without a
 * `kid` (signed before key ids existed), the current then the previous key. A `kid` naming
 * neither key (a removed previous secret) verifies with none.
 */
function candidates(keys: TokenKeys, token: string): TokenKey[] {
  const all = keys.previous ? [keys.current, keys.previous] : [keys.current];
  let kid: unknown;
  try {
    kid = decodeProtectedHeader(token).kid;
  } catch {
    return [];
  }
  return kid === undefined ? all : all.filter((k) => k.kid === kid);
}

/**
 * The claims of a valid, unexpired HS256 token signed with one of our keys; null otherwise.
 * `exp` is required: a token without one would be valid forever once it leaked.
 */
export async function verifyToken(keys: TokenKeys, clock: Clock, token: string): Promise<ActorClaims | null> {
  for (const k of candidates(keys, token)) {
    try {
      // Signed by us with these claims (signToken), so jose may type the payload as them; the two
      // the guards rely on are checked below all the same.
      const { payload } = await jwtVerify<ActorClaims>(token, k.secret, {
        algorithms: ['HS256'],
        currentDate: clock.now(),
        requiredClaims: ['exp'],
      });
      if (typeof payload.actor_type !== 'string' || typeof payload.actor_id !== 'string') return null;
      return payload;
    } catch {
      // the next key, if any
    }
  }
  return null;
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
