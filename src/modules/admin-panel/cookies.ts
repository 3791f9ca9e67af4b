import { createHmac } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { decodeJwt } from 'jose';
import type { Config } from '../../platform/config.ts';
import type { ActorClaims } from '../auth/tokens.ts';
import { findSessionClaims } from '../sessions/service.ts';

/** Spec rule 4: the panel's two HTTP-only cookies. The token cookie holds the admin JWT. */
export const TOKEN_COOKIE = 'admin_token';
/** A server-side session (a `sessions` row): logout deletes it, so the token cookie alone is worthless. */
export const SESSION_COOKIE = 'admin_session';

/** Sent only to the admin API (and its panel session routes), never to /store or /app pages. */
const COOKIE_PATH = '/admin';

function cookieOptions(config: Config) {
  return { path: COOKIE_PATH, httpOnly: true, sameSite: 'strict' as const, secure: config.production };
}

export function setPanelCookies(
  reply: FastifyReply,
  config: Config,
  token: string,
  sessionToken: string,
  maxAge: number,
): void {
  reply.setCookie(TOKEN_COOKIE, token, { ...cookieOptions(config), maxAge });
  reply.setCookie(SESSION_COOKIE, sessionToken, { ...cookieOptions(config), maxAge, signed: true });
}

export function clearPanelCookies(reply: FastifyReply, config: Config): void {
  reply.clearCookie(TOKEN_COOKIE, cookieOptions(config));
  reply.clearCookie(SESSION_COOKIE, cookieOptions(config));
}

/** The random session token of a correctly signed `admin_session` cookie, or null. */
export function panelSessionToken(req: FastifyRequest): string | null {
  const raw = req.cookies?.[SESSION_COOKIE];
  if (!raw) return null;
  const unsigned = req.unsignCookie(raw);
  return unsigned.valid && unsigned.value ? unsigned.value : null;
}

/**
 * The per-session CSRF token: an HMAC of the session token, so it needs no storage, changes with
 * every login, and cannot be computed by a page that cannot read the HTTP-only cookie.
 */
export function csrfTokenFor(cookieSecret: string, sessionToken: string): string {
  return createHmac('sha256', cookieSecret).update(`admin-panel-csrf:${sessionToken}`).digest('base64url');
}

/** For csrfGuard: panel requests must echo their session's token; others (connect.sid) need none. */
export function expectedPanelCsrf(cookieSecret: string, previousSecret?: string) {
  const secrets = previousSecret ? [cookieSecret, previousSecret] : [cookieSecret];
  return (req: FastifyRequest): string[] | null => {
    const session = panelSessionToken(req);
    return session ? secrets.map((secret) => csrfTokenFor(secret, session)) : null;
  };
}

/** Same user and same login: the token cookie must be the one this session was started with. */
function sameLogin(session: { actor_id: string; iat?: number }, token: string): boolean {
  try {
    const claims = decodeJwt(token);
    return claims.actor_id === session.actor_id && claims.iat === session.iat;
  } catch {
    return false;
  }
}

/**
 * The panel's proxy (spec rule 4), as an onRequest hook on /admin: a request with both panel
 * cookies of a live session and no Authorization header gets `Authorization: Bearer <token>`,
 * which the admin guard then verifies (signature, expiry, user, role) like any other bearer.
 */
export function panelCookieBridge() {
  return async function bridge(req: FastifyRequest) {
    if (req.headers.authorization) return;
    const token = req.cookies?.[TOKEN_COOKIE];
    const session = token ? panelSessionToken(req) : null;
    if (!token || !session) return;
    if (await livePanelLogin(req, token, session)) req.headers.authorization = `Bearer ${token}`;
  };
}

/** The claims of the panel session when the token cookie belongs to it and it is live; else null. */
export async function livePanelLogin(req: FastifyRequest, token: string, session: string): Promise<ActorClaims | null> {
  const claims = await findSessionClaims(req.ctx, session);
  return claims && sameLogin(claims, token) ? claims : null;
}
