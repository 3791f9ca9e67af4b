import { csrfGuard } from '../../platform/http/csrf.ts';
import type { AppDeps } from '../../platform/http/types.ts';
import { SESSION_COOKIE } from './cookie.ts';

/**
 * CSRF for `connect.sid` sessions on /store and /auth (a customer's, or a user's on DELETE
 * /auth/session), with the admin surface's check (platform/http/csrf.ts): a state-changing
 * request carrying the cookie and no Authorization must come from this instance's origin, from
 * PUBLIC_URL's, or from the surface's CORS list. By origin only, as for `connect.sid` on /admin:
 * Medusa's storefront SDK in session mode sends no header token.
 */
export function sessionCsrf(deps: AppDeps, surface: 'store' | 'auth') {
  return csrfGuard({
    cookies: [SESSION_COOKIE],
    trustedOrigins: [new URL(deps.config.publicUrl).origin, ...deps.config.cors[surface]],
  });
}
