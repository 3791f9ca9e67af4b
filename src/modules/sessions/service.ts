import { randomBytes } from 'node:crypto';
import type { Ctx, TxCtx } from '../../platform/context.ts';
import { hashToken } from '../api-keys/lookup.ts';
import type { ActorClaims } from '../auth/tokens.ts';
import * as q from './queries.ts';

/** Medusa's express-session maxAge: 10 hours from login, not renewed on use. */
export const SESSION_TTL_SECONDS = 10 * 3600;

/** When a session started now ends: after `ttlSeconds`, but never after the token it was made from expires. */
export function sessionExpiry(claims: ActorClaims, now: Date, ttlSeconds: number): Date {
  const end = now.getTime() + ttlSeconds * 1000;
  return new Date(claims.exp === undefined ? end : Math.min(end, claims.exp * 1000));
}

/**
 * Starts a session holding the claims of the token it was made from and returns the random
 * token for the cookie, with the session's end. Only its sha256 is stored. Expired sessions are
 * swept a few at a time here. A session lasts `ttlSeconds` (the admin panel's: as long as their
 * token), capped at the token's `exp`: a session never outlives the token it was made from.
 */
export async function createSession(
  ctx: Ctx,
  claims: ActorClaims,
  ttlSeconds = SESSION_TTL_SECONDS,
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const now = ctx.clock.now();
  const expiresAt = sessionExpiry(claims, now, ttlSeconds);
  await q.deleteExpiredSessions(ctx.db, now, 100);
  await q.insertSession(ctx.db, { id: hashToken(token), claims, expires_at: expiresAt, created_at: now });
  return { token, expiresAt };
}

/** The claims of a live (unexpired by the clock) session, or null. */
export async function findSessionClaims(ctx: Ctx, token: string): Promise<ActorClaims | null> {
  const row = await q.findLiveSession(ctx.db, hashToken(token), ctx.clock.now());
  return row?.claims ?? null;
}

/** Ends a live session; false when there was none (unknown, expired or already ended). */
export function endSession(ctx: Ctx, token: string): Promise<boolean> {
  return q.deleteLiveSession(ctx.db, hashToken(token), ctx.clock.now());
}

/** Ends every session of a login (`auth_identity_id`), in the caller's transaction: a password reset does. */
export function endSessionsOfIdentity(
  tctx: TxCtx,
  actorType: 'user' | 'customer',
  authIdentityId: string,
): Promise<void> {
  return q.deleteSessionsOfIdentity(tctx.tx, actorType, authIdentityId);
}
