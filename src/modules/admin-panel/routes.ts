import { Type } from 'typebox';
import { csrfGuard, assertSameSite } from '../../platform/http/csrf.ts';
import { errors } from '../../platform/http/errors.ts';
import { PUBLIC } from '../../platform/http/permissions.ts';
import { roleName, rolePatterns } from '../team/roles-service.ts';
import { ok } from '../../platform/http/responses.ts';
import type { App, AppDeps } from '../../platform/http/types.ts';
import { sharedLoginLimiter } from '../auth/login-limiter.ts';
import { EmailPassBody, User } from '../auth/schema.ts';
import { getUserOfToken, loginUser } from '../auth/service.ts';
import { type ActorClaims, tokenKeys, verifyToken } from '../auth/tokens.ts';
import type { Ctx } from '../../platform/context.ts';
import { createSession, endSession } from '../sessions/service.ts';
import { SESSION_COOKIE as CONNECT_SID } from '../sessions/cookie.ts';
import {
  SESSION_COOKIE,
  TOKEN_COOKIE,
  clearPanelCookies,
  csrfTokenFor,
  expectedPanelCsrf,
  livePanelLogin,
  panelCookieBridge,
  panelSessionToken,
  setPanelCookies,
} from './cookies.ts';

const tags = ['admin panel'];

const PanelSession = Type.Object({
  user: User,
  permissions: Type.Array(Type.String(), { description: "the role's permission patterns (`*:read`, `orders:refund`)" }),
  role_name: Type.String({ description: 'the role as people read it: "Owner", "Fulfilment", a custom role\'s name' }),
  csrf_token: Type.String({ description: 'send as x-csrf-token on every write made with the panel cookies' }),
  instance: Type.Object({ role: Type.String({ enum: ['shop', 'marketplace'] }), federated: Type.Boolean() }),
});

/** Browser origins the admin surface trusts besides the request's own host. */
export function adminTrustedOrigins(deps: AppDeps): string[] {
  return [new URL(deps.config.publicUrl).origin, ...deps.config.cors.admin];
}

/**
 * The onRequest hooks of the /admin surface that come before the admin guard, in this order:
 * CSRF on cookie-authenticated writes (panel cookies with their header token, `connect.sid` by
 * origin), then the panel's cookie → Bearer bridge.
 */
export function adminCookieHooks(deps: AppDeps) {
  const csrf = csrfGuard({
    cookies: [CONNECT_SID, TOKEN_COOKIE, SESSION_COOKIE],
    trustedOrigins: adminTrustedOrigins(deps),
    expectedToken: expectedPanelCsrf(deps.config.cookieSecret, deps.config.cookieSecretPrevious),
  });
  return [csrf, panelCookieBridge()];
}

/**
 * The panel's login, session and logout (`/admin/panel/session`), outside the admin guard: the
 * login sets the two cookies, GET answers who is signed in with the CSRF token, DELETE revokes.
 */
export async function adminPanelSessionRoutes(app: App, deps: AppDeps): Promise<void> {
  const keys = tokenKeys(deps.config.jwtSecret, deps.config.jwtExpiresInSeconds, deps.config.jwtSecretPrevious);
  const limiter = sharedLoginLimiter(app, deps);
  const trusted = adminTrustedOrigins(deps);
  const instance = { role: deps.config.role, federated: !!deps.config.federation };
  const url = '/admin/panel/session';

  /** Who is signed in with these claims, what they may do, and the CSRF token of their session. */
  const sessionAnswer = async (ctx: Ctx, claims: ActorClaims, session: string) => {
    const user = await getUserOfToken(ctx, claims);
    return {
      user,
      permissions: [...(await rolePatterns(ctx, user.role).catch(() => []))],
      role_name: await roleName(ctx, user.role),
      csrf_token: csrfTokenFor(deps.config.cookieSecret, session),
      instance,
    };
  };

  app.post(
    url,
    {
      schema: {
        tags,
        summary: 'Admin panel login (sets admin_token and admin_session)',
        body: EmailPassBody,
        response: ok(PanelSession),
      },
      config: { permission: PUBLIC },
    },
    async (req, reply) => {
      // Login CSRF: another site must not sign the operator into an account of its choosing.
      assertSameSite(req, trusted);
      const token = await loginUser(req.ctx, { keys, limiter }, { ...req.body, ip: req.ip });
      const claims = (await verifyToken(keys, deps.clock, token))!;
      const { token: session } = await createSession(req.ctx, claims, keys.expiresInSeconds);
      setPanelCookies(reply, deps.config, token, session, keys.expiresInSeconds);
      return sessionAnswer(req.ctx, claims, session);
    },
  );

  app.get(
    url,
    {
      schema: { tags, summary: 'The signed-in operator of the panel cookies', response: ok(PanelSession) },
      config: { permission: PUBLIC },
    },
    async (req) => {
      const token = req.cookies[TOKEN_COOKIE];
      const session = panelSessionToken(req);
      // A live session started with this token, and the token itself still valid (not expired,
      // not revoked by a password change).
      const claims =
        token && session && (await livePanelLogin(req, token, session))
          ? await verifyToken(keys, deps.clock, token)
          : null;
      if (!claims || !session) throw errors.unauthorized('unauthorized');
      return sessionAnswer(req.ctx, claims, session);
    },
  );

  const csrf = csrfGuard({
    cookies: [TOKEN_COOKIE, SESSION_COOKIE],
    trustedOrigins: trusted,
    expectedToken: expectedPanelCsrf(deps.config.cookieSecret, deps.config.cookieSecretPrevious),
  });
  app.delete(
    url,
    {
      onRequest: csrf,
      schema: {
        tags,
        summary: 'Log out: revokes the session and clears the cookies',
        response: ok(Type.Object({ success: Type.Literal(true) })),
      },
      config: { permission: PUBLIC },
    },
    async (req, reply) => {
      const session = panelSessionToken(req);
      if (session) await endSession(req.ctx, session);
      clearPanelCookies(reply, deps.config);
      return { success: true as const };
    },
  );
}
