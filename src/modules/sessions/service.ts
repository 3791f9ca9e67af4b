import { randomBytes } from 'node:crypto';
import type { Ctx } from '../../platform/context.ts';
import { hashToken } from '../api-keys/lookup.ts';
import type { ActorClaims } from '../auth/tokens.ts';
import * as q from './queries.ts';

/** Medusa's express-session maxAge: 10 hours from login, not renewed on use. */
export const SESSION_TTL_SECONDS = 10 * 3600;

/**
 * Starts a session holding the claims of the token it was made from and returns the random
 * token for the cookie. Only its sha256 is stored. Expired sessions are swept a few at a time here.
 * The admin panel's sessions live as long as their token (`ttlSeconds`).
 */
export async function createSession(ctx: Ctx, claims: ActorClaims, ttlSeconds = SESSION_TTL_SECONDS): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const now = ctx.clock.now();
  await q.deleteExpiredSessions(ctx.db, now, 100);
  await q.insertSession(ctx.db, {
    id: hashToken(token),
    claims,
    expires_at: new Date(now.getTime() + ttlSeconds * 1000),
    created_at: now,
  });
  return token;
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
