import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { errors } from './errors.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The header a cookie-authenticated write carries its token in (the admin panel sends it). */
export const CSRF_HEADER = 'x-csrf-token';

export interface CsrfOptions {
  /** Cookies that authenticate the surface; a request carrying none of them is not cookie-authenticated. */
  cookies: string[];
  /** Browser origins trusted besides the request's own (`PUBLIC_URL`'s, the surface's CORS list). */
  trustedOrigins: string[];
  /**
   * The token this request must carry in `x-csrf-token`, or null when its cookie needs none
   * (the Medusa-compatible `connect.sid`, which relies on the origin check alone).
   */
  expectedToken?: (req: FastifyRequest) => string | string[] | null;
}

function originOf(url: string | undefined): string | undefined {
  return url && URL.canParse(url) ? new URL(url).origin : undefined;
}

/**
 * Refuses (403) a request a browser sent from a page that is not ours: its `Origin` (or, without
 * one, its `Referer`) must be this host or a trusted origin; `Origin: null` (sandboxed frames,
 * privacy redirects) never is. Without both headers, `Sec-Fetch-Site` must not say cross-site.
 * A request with none of the three comes from a non-browser client, which cannot be forged by
 * a page. Browsers always send `Origin` on cross-site POST, PUT, PATCH and DELETE, form posts included.
 */
export function assertSameSite(req: FastifyRequest, trustedOrigins: string[]): void {
  const origin = req.headers.origin ?? originOf(req.headers.referer);
  if (origin !== undefined) {
    const own = `${req.protocol}://${req.host}`;
    if (origin !== own && !trustedOrigins.includes(origin)) throw errors.forbidden('cross_site_refused');
    return;
  }
  const site = req.headers['sec-fetch-site'];
  if (site && site !== 'same-origin' && site !== 'none') throw errors.forbidden('cross_site_refused');
}

/** Content types a cross-site HTML form (or a no-preflight fetch) can send. */
const SIMPLE_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain', '']);

/**
 * The second factor for a cookie that has no header token (`connect.sid`: Medusa's SDK in session
 * mode sends none): a browser's POST must be one a page cannot send without a CORS preflight,
 * i.e. JSON (the SDK always sends `content-type: application/json`). PUT, PATCH and DELETE always
 * need a preflight. Non-browser clients (no Origin, Referer or Sec-Fetch-Site) cannot be forged.
 */
function assertNotFormSubmittable(req: FastifyRequest): void {
  if (req.method !== 'POST') return;
  const h = req.headers;
  if (h.origin === undefined && h.referer === undefined && h['sec-fetch-site'] === undefined) return;
  const type = (h['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (SIMPLE_TYPES.has(type)) throw errors.forbidden('cookie_write_not_json');
}

function sameToken(got: string, expected: string): boolean {
  const a = Buffer.from(got);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * CSRF protection for a surface authenticated by cookies, as an onRequest hook:
 * `scope.addHook('onRequest', csrfGuard({ cookies: ['connect.sid'], trustedOrigins }))`.
 * Only state-changing methods of requests that carry one of `cookies` and no `Authorization`
 * header are checked (a page cannot add that header cross-site without a CORS preflight, so
 * Bearer and Basic callers are unaffected). Register it before the hook that reads the cookies.
 */
export function csrfGuard(opts: CsrfOptions) {
  const check = (req: FastifyRequest): void => {
    if (SAFE_METHODS.has(req.method) || req.headers.authorization) return;
    if (!opts.cookies.some((name) => req.cookies?.[name])) return;
    assertSameSite(req, opts.trustedOrigins);
    const token = opts.expectedToken?.(req);
    // Several during a secret rotation: the one under the current secret, then under the previous.
    const expected = Array.isArray(token) ? token : token ? [token] : [];
    if (!expected.length) {
      assertNotFormSubmittable(req);
      return;
    }
    const got = req.headers[CSRF_HEADER];
    if (typeof got !== 'string' || !expected.some((e) => sameToken(got, e)))
      throw errors.forbidden('csrf_token_invalid');
  };
  // A callback hook (it never waits): every request of its surface runs it.
  return function csrf(req: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
    try {
      check(req);
    } catch (err) {
      done(err as Error);
      return;
    }
    done();
  };
}
