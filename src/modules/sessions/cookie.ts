import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../platform/config.ts';
import type { ActorClaims } from '../auth/tokens.ts';
import { findSessionClaims } from './service.ts';

/** Medusa's cookie name (express-session's default), so its SDK in session mode works unchanged. */
export const SESSION_COOKIE = 'connect.sid';

function cookieOptions(config: Config) {
  return { path: '/', httpOnly: true, sameSite: 'lax' as const, secure: config.production };
}

/**
 * The cookie carries the random session token signed with COOKIE_SECRET (@fastify/cookie):
 * a forged or garbled cookie is rejected without a database lookup. It lasts as long as the session.
 */
export function setSessionCookie(reply: FastifyReply, token: string, config: Config, maxAgeSeconds: number): void {
  reply.setCookie(SESSION_COOKIE, token, { ...cookieOptions(config), maxAge: maxAgeSeconds, signed: true });
}

export function clearSessionCookie(reply: FastifyReply, config: Config): void {
  reply.clearCookie(SESSION_COOKIE, cookieOptions(config));
}

/** The session token from a correctly signed `connect.sid` cookie, or null. */
export function sessionToken(req: FastifyRequest): string | null {
  const raw = req.cookies?.[SESSION_COOKIE];
  if (!raw) return null;
  const unsigned = req.unsignCookie(raw);
  return unsigned.valid && unsigned.value ? unsigned.value : null;
}

/** The claims of the request's live session, or null. Used by the admin guard and customer auth. */
export async function sessionClaims(req: FastifyRequest): Promise<ActorClaims | null> {
  const token = sessionToken(req);
  return token ? findSessionClaims(req.ctx, token) : null;
}
