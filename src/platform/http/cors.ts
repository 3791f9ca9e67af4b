import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { Config } from '../config.ts';
import type { App } from './types.ts';

/** Headers Medusa's JS SDK sends from browsers; a preflight must allow them. */
const ALLOWED_HEADERS = [
  'content-type',
  'authorization',
  'x-publishable-api-key',
  'x-medusa-locale',
  'x-request-id',
  'accept',
  'x-emporium-amount-units', // the admin panel's per-request AMOUNT_UNITS override
].join(', ');

/** Every method the surfaces use: the SDK deletes cart lines and addresses from the browser. */
const ALLOWED_METHODS = 'GET,HEAD,PUT,PATCH,POST,DELETE';
const MAX_AGE = '600';

/** A surface's allowed origins: any, or these exactly. */
type Origins = '*' | ReadonlySet<string>;

function surfaceOf(url: string): keyof Config['cors'] | null {
  if (url.startsWith('/store/marketplace')) return null; // server-to-server federation surface
  if (url.startsWith('/store')) return 'store';
  if (url.startsWith('/admin')) return 'admin';
  if (url.startsWith('/auth')) return 'auth';
  return null;
}

/**
 * Browser storefronts and admin panels on other origins (with credentials, for `connect.sid`):
 * each surface answers only the origins configured for it (STORE_CORS, ADMIN_CORS, AUTH_CORS);
 * everything else gets no CORS headers. A preflight of an allowed surface is answered here, 204,
 * before any other hook can refuse it (the browser sends it without credentials).
 *
 * This was @fastify/cors with a per-request options delegator (one surface's origins per URL).
 * That delegator builds and normalizes the options for every request: measured at 10–20 µs of
 * a cached store read's 50–70 µs of CPU (bench:store-ab, docs/performance.md). The rules here are
 * that plugin's for these options: the origin reflected when listed (`*` when `*` is listed),
 * credentials allowed, `Vary: Origin`, strict preflights (400 without Origin or
 * Access-Control-Request-Method), and no headers at all for a surface without origins.
 */
export function registerCors(app: App, config: Config): void {
  const origins = (list: string[]): Origins | null =>
    list.length === 0 ? null : list.includes('*') ? '*' : new Set(list);
  const bySurface = {
    store: origins(config.cors.store),
    admin: origins(config.cors.admin),
    auth: origins(config.cors.auth),
  };
  app.addHook('onRequest', (req: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const surface = surfaceOf(req.url);
    const allowed = surface && bySurface[surface];
    if (!allowed) return done();
    const origin = req.headers.origin;
    reply.header('vary', 'Origin');
    if (allowed === '*') reply.header('access-control-allow-origin', '*');
    else if (origin !== undefined && allowed.has(origin)) reply.header('access-control-allow-origin', origin);
    reply.header('access-control-allow-credentials', 'true');
    if (req.method !== 'OPTIONS') return done();
    if (origin === undefined || req.headers['access-control-request-method'] === undefined) {
      reply.code(400).type('text/plain').send('Invalid Preflight Request');
      return;
    }
    reply
      .header('access-control-allow-methods', ALLOWED_METHODS)
      .header('access-control-allow-headers', ALLOWED_HEADERS)
      .header('access-control-max-age', MAX_AGE)
      .code(204)
      .header('content-length', '0') // Safari waits for a body on a 204 without it
      .send();
  });
  // An OPTIONS request that is no preflight of an allowed surface reaches no route: a 404.
  app.options('*', { schema: { hide: true } }, (_req, reply) => reply.callNotFound());
}
