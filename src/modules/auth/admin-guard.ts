import type { FastifyRequest } from 'fastify';
import { errors } from '../../platform/http/errors.ts';
import type { AppDeps } from '../../platform/http/types.ts';
import { findSecretKeyActor } from '../api-keys/lookup.ts';
import { findVendorToken } from '../marketplace/vendors/lookup.ts';
import { sessionClaims } from '../sessions/cookie.ts';
import { findUserAccess } from './queries.ts';
import { isCurrentToken, tokenKeys, verifyToken } from './tokens.ts';

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Routes under /admin that authenticate by other means (their own signature checks). */
const PUBLIC_ADMIN_PATHS = new Set<string>(['/admin/marketplace/license-issued']);

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
 * Viewers may only read.
 */
export function adminGuard(deps: AppDeps) {
  const keys = tokenKeys(deps.config.jwtSecret, deps.config.jwtExpiresInSeconds, deps.config.jwtSecretPrevious);
  return async function guard(req: FastifyRequest) {
    if (PUBLIC_ADMIN_PATHS.has(req.url.split('?')[0])) return;
    const header = req.headers.authorization ?? '';
    const [scheme, value] = header.split(' ', 2);
    if (scheme?.toLowerCase() === 'basic' && value) {
      const token = Buffer.from(value, 'base64').toString('utf8').split(':')[0];
      const keyId = token.startsWith('sk_') ? await findSecretKeyActor(req.ctx.db, token, deps.clock.now()) : null;
      if (!keyId) throw errors.unauthorized();
      req.actor = { type: 'api_key', id: keyId, role: 'admin' };
    } else if (scheme?.toLowerCase() === 'bearer' && value?.startsWith('mvk_') && deps.config.role === 'marketplace') {
      const found = await findVendorToken(req.ctx, value);
      if (!found) throw errors.unauthorized();
      req.actor = {
        type: 'vendor',
        id: found.token_id,
        role: 'vendor',
        vendor: { id: found.vendor_id, scopes: found.scopes },
      };
      const needed = req.routeOptions.config?.vendorScope;
      if (!needed || !found.scopes.includes(needed))
        throw errors.forbidden(needed ? `This token lacks the ${needed} scope` : 'Vendors may not use this route');
    } else {
      // A bearer token or, without one, the `connect.sid` session made from such a token (Medusa accepts both).
      const claims =
        scheme?.toLowerCase() === 'bearer' && value
          ? await verifyToken(keys, deps.clock, value)
          : await sessionClaims(req);
      if (claims?.actor_type !== 'user' || !claims.actor_id) throw errors.unauthorized();
      const user = await findUserAccess(req.ctx.db, claims.actor_id);
      if (!user || !isCurrentToken(claims, user.token_version)) throw errors.unauthorized();
      req.actor = { type: 'user', id: claims.actor_id, role: user.role };
    }
    req.ctx.actor = req.actor;
    if (req.actor.role === 'viewer' && !READ_METHODS.has(req.method)) throw errors.forbidden();
  };
}
