import type { Ctx } from '../../platform/context.ts';
import { errors } from '../../platform/http/errors.ts';
import { ok } from '../../platform/http/responses.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import { bearerToken, tokenKeys, verifyToken, type ActorClaims } from '../auth/tokens.ts';
import { clearSessionCookie, sessionToken, setSessionCookie } from './cookie.ts';
import { SessionEnded, SessionResponse } from './schema.ts';
import { createSession, endSession } from './service.ts';

const tags = ['auth'];

/** Whether no password change has revoked a token since it was issued (its actor's module answers). */
export type CurrentTokenCheck = (ctx: Ctx, claims: ActorClaims) => Promise<boolean>;

/**
 * Medusa's session mode: trade a bearer token (any actor, unregistered too) for a `connect.sid`
 * cookie. `isCurrent` is wired in src/routes.ts: a token revoked by a password reset gets no session.
 */
export function sessionRoutes(isCurrent: CurrentTokenCheck): RouteModule {
  return (app, deps) => {
    const keys = tokenKeys(deps.config.jwtSecret, deps.config.jwtExpiresInSeconds, deps.config.jwtSecretPrevious);

    app.post(
      '/session',
      { schema: { tags, summary: 'Start a cookie session from a bearer token', response: ok(SessionResponse) } },
      async (req, reply) => {
        const token = bearerToken(req.headers.authorization);
        const claims = token ? await verifyToken(keys, deps.clock, token) : null;
        if (!claims || !(await isCurrent(req.ctx, claims))) throw errors.unauthorized('unauthorized');
        const session = await createSession(req.ctx, claims);
        const maxAge = Math.ceil((session.expiresAt.getTime() - deps.clock.now().getTime()) / 1000);
        setSessionCookie(reply, session.token, deps.config, maxAge);
        return { user: claims };
      },
    );

    app.delete(
      '/session',
      { schema: { tags, summary: 'End the cookie session', response: ok(SessionEnded) } },
      async (req, reply) => {
        const token = sessionToken(req);
        if (!token || !(await endSession(req.ctx, token))) throw errors.unauthorized('unauthorized');
        clearSessionCookie(reply, deps.config);
        return { success: true as const };
      },
    );
  };
}
