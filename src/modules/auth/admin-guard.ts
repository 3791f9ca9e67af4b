import type { FastifyRequest } from 'fastify';
import { errors } from '../../platform/http/errors.ts';
import { grants, PUBLIC } from '../../platform/http/permissions.ts';
import { permissionsOf } from '../team/roles.ts';
import type { AppDeps } from '../../platform/http/types.ts';
import { findSecretKeyActor } from '../api-keys/lookup.ts';
import { findVendorToken } from '../marketplace/vendors/lookup.ts';
import { sessionClaims } from '../sessions/cookie.ts';
import { findUserAccess } from './queries.ts';
import { isCurrentToken, tokenKeys, verifyToken } from './tokens.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The scope a marketplace vendor's token needs for this route. A route without one refuses
     * every vendor (403): vendors reach only what was opened to them, one route at a time.
     */
    vendorScope?: 'read' | 'publish' | 'tokens';
  }
}

/**
 * Authenticates every /admin request: a user JWT (`Authorization: Bearer`, or the session cookie
 * of `POST /auth/session`) whose user still exists, or a secret API key
 * (`Authorization: Basic base64("sk_…:")`, Medusa's form).
 * The role and token version are read from the database on each request (one read), so a
 * demotion takes effect at once, and a password change revokes every older token and session.
 * Then the role must grant the route's declared permission (x-permission in /openapi.json).
 */
export function adminGuard(deps: AppDeps) {
  const keys = tokenKeys(deps.config.jwtSecret, deps.config.jwtExpiresInSeconds, deps.config.jwtSecretPrevious);
  return async function guard(req: FastifyRequest) {
    // Routes under /admin that check their caller by other means (a signature, an invite token).
    if (req.routeOptions.config.permission === PUBLIC) return;
    const header = req.headers.authorization ?? '';
    const [scheme, value] = header.split(' ', 2);
    if (scheme?.toLowerCase() === 'basic' && value) {
      const token = Buffer.from(value, 'base64').toString('utf8').split(':')[0];
      const keyId = token.startsWith('sk_') ? await findSecretKeyActor(req.ctx.db, token, deps.clock.now()) : null;
      if (!keyId) throw errors.unauthorized('unauthorized');
      req.actor = { type: 'api_key', id: keyId, role: 'admin', permissions: permissionsOf('admin', null) };
    } else if (scheme?.toLowerCase() === 'bearer' && value?.startsWith('mvk_') && deps.config.role === 'marketplace') {
      const found = await findVendorToken(req.ctx, value);
      if (!found) throw errors.unauthorized('unauthorized');
      req.actor = {
        type: 'vendor',
        id: found.token_id,
        role: 'vendor',
        // Vendors pass by scope, never by permission: they hold none.
        permissions: [],
        vendor: { id: found.vendor_id, scopes: found.scopes },
      };
      const needed = req.routeOptions.config?.vendorScope;
      if (!needed || !found.scopes.includes(needed))
        throw needed
          ? errors.forbidden('token_scope_missing', { scope: needed })
          : errors.forbidden('vendor_route_refused');
      req.ctx.actor = req.actor;
      return;
    } else {
      // A bearer token or, without one, the `connect.sid` session made from such a token (Medusa accepts both).
      const claims =
        scheme?.toLowerCase() === 'bearer' && value
          ? await verifyToken(keys, deps.clock, value)
          : await sessionClaims(req);
      if (claims?.actor_type !== 'user' || !claims.actor_id) throw errors.unauthorized('unauthorized');
      const user = await findUserAccess(req.ctx.db, claims.actor_id);
      if (!user || !isCurrentToken(claims, user.token_version)) throw errors.unauthorized('unauthorized');
      req.actor = {
        type: 'user',
        id: claims.actor_id,
        role: user.role,
        permissions: permissionsOf(user.role, user.permissions),
      };
    }
    req.ctx.actor = req.actor;
    // Every route names its permission (platform/http/permissions.ts); one that names none is the owners'.
    const needed = req.routeOptions.config.permission;
    if (!req.is404 && !grants(req.actor.permissions, needed))
      throw needed
        ? errors.forbidden('permission_missing', { permission: needed })
        : errors.forbidden('owner_only_route');
  };
}
