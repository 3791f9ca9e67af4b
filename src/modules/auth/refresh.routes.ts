import type { Ctx } from '../../platform/context.ts';
import { errors } from '../../platform/http/errors.ts';
import { ok } from '../../platform/http/responses.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import { sessionClaims } from '../sessions/cookie.ts';
import { TokenResponse } from './schema.ts';
import { type ActorClaims, bearerToken, type ReissuedClaims, signToken, tokenKeys, verifyToken } from './tokens.ts';

/** The claims a fresh token of this actor says now, or null when its login is gone or a password change revoked it. */
export type Reissue = (ctx: Ctx, claims: ActorClaims) => Promise<ReissuedClaims | null>;

/**
 * Medusa's `POST /auth/token/refresh` (`sdk.auth.refresh`): a valid token (bearer, or the
 * session cookie made from one) buys a new token with the login's current claims (a customer
 * created since, a user's current role), signed with the current key. It never outlives the
 * token it replaces: its `exp` is the old one's, so refreshing cannot keep a stolen token alive.
 * `reissue` is the actor's own module's (wired in src/routes.ts).
 */
export function tokenRefreshRoutes(reissue: Reissue): RouteModule {
  return (app, deps) => {
    const keys = tokenKeys(deps.config.jwtSecret, deps.config.jwtExpiresInSeconds, deps.config.jwtSecretPrevious);
    app.post(
      '/token/refresh',
      {
        schema: {
          tags: ['auth'],
          summary: 'A fresh token for a valid one (bearer or session), expiring when the old one does',
          response: ok(TokenResponse),
        },
      },
      async (req) => {
        const bearer = bearerToken(req.headers.authorization);
        const claims = bearer ? await verifyToken(keys, deps.clock, bearer) : await sessionClaims(req);
        if (!claims?.exp) throw errors.unauthorized('unauthorized');
        const fresh = await reissue(req.ctx, claims);
        if (!fresh) throw errors.unauthorized('unauthorized');
        return { token: await signToken(keys, deps.clock, fresh, claims.exp) };
      },
    );
  };
}
