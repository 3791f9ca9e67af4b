import { errors } from '../../platform/http/errors.ts';
import { ok } from '../../platform/http/responses.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import { bearerToken, tokenKeys, verifyToken } from '../auth/tokens.ts';
import { clearSessionCookie, sessionToken, setSessionCookie } from './cookie.ts';
import { SessionEnded, SessionResponse } from './schema.ts';
import { createSession, endSession } from './service.ts';

const tags = ['auth'];

/** Medusa's session mode: trade a bearer token (any actor, unregistered too) for a `connect.sid` cookie. */
export const sessionRoutes: RouteModule = (app, deps) => {
  const keys = tokenKeys(deps.config.jwtSecret, deps.config.jwtExpiresInSeconds);

  app.post(
    '/session',
    { schema: { tags, summary: 'Start a cookie session from a bearer token', response: ok(SessionResponse) } },
    async (req, reply) => {
      const token = bearerToken(req.headers.authorization);
      const claims = token ? await verifyToken(keys, deps.clock, token) : null;
      if (!claims) throw errors.unauthorized();
      setSessionCookie(reply, await createSession(req.ctx, claims), deps.config);
      return { user: claims };
    },
  );

  app.delete(
    '/session',
    { schema: { tags, summary: 'End the cookie session', response: ok(SessionEnded) } },
    async (req, reply) => {
      const token = sessionToken(req);
      if (!token || !(await endSession(req.ctx, token))) throw errors.unauthorized();
      clearSessionCookie(reply, deps.config);
      return { success: true as const };
    },
  );
};
