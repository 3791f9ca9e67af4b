import Fastify from 'fastify';
import qs from 'qs';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ulid } from 'ulid';
import { createRequire } from 'node:module';
import { errorHandler, notFoundHandler } from './platform/http/error-handler.ts';
import { registerOpenApi } from './platform/http/openapi.ts';
import { validatorCompiler } from './platform/http/validator.ts';
import { registerCors } from './platform/http/cors.ts';
import type { App, AppDeps } from './platform/http/types.ts';
import { adminRoutes, authRoutes, storeRoutes } from './routes.ts';
import { adminGuard } from './modules/auth/admin-guard.ts';
import { storeGuard } from './modules/api-keys/store-guard.ts';
import { customerAuth } from './modules/customers/customer-auth.ts';
import fastifyCookie from '@fastify/cookie';
import { PluginHost } from './modules/plugins/host.ts';
import { licenceCheckFor } from './modules/federation/licence-check.ts';

const pkg = createRequire(import.meta.url)('../package.json') as { version: string };

/** Builds the whole HTTP app without listening: main.ts listens, tests use `inject`. */
export async function buildApp(deps: AppDeps): Promise<App> {
  const app = Fastify({
    logger:
      deps.logger === false
        ? false
        : {
            level: deps.config.logLevel,
            redact: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-publishable-api-key"]', 'res.headers["set-cookie"]'],
            ...(typeof deps.logger === 'object' ? deps.logger : {}),
          },
    genReqId: () => ulid(),
    // Errors raised before routing (a malformed URL, a bad content-type header) get our shape too.
    frameworkErrors: (err, req, reply) => errorHandler(err, req, reply),
    requestIdHeader: 'x-request-id',
    bodyLimit: 1024 * 1024,
    // Only behind a proxy that sets X-Forwarded-For may it decide req.ip (rate limits key on it).
    trustProxy: deps.config.trustProxy,
    // Medusa's SDK sends qs-style queries: `id[]=a`, `id[0]=a`, `created_at[gte]=…`.
    // Path ids are validated by schema (IdParams), not cut off by the router's 100-char default.
    routerOptions: { maxParamLength: 1000, querystringParser: (query: string) => qs.parse(query, { depth: 2, arrayLimit: 200, parameterLimit: 200 }) },
  }).withTypeProvider<TypeBoxTypeProvider>();

  // Medusa's SDK sends `content-type: application/json` with empty bodies on actions: treat as `{}`.
  const defaultJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if (body === '' || body === undefined) return done(null, {});
    return defaultJson(req, body as string, done);
  });

  app.setValidatorCompiler(validatorCompiler);

  // Cookies for `connect.sid` sessions, signed with COOKIE_SECRET (registered before the surfaces use them).
  await app.register(fastifyCookie, { secret: deps.config.cookieSecret });

  app.decorateRequest('ctx', null as never);
  app.decorateRequest('actor', null);
  app.decorateRequest('store', null);
  app.decorateRequest('customer', null);
  app.addHook('onRequest', async (req, reply) => {
    req.ctx = { db: deps.database.db, clock: deps.clock, log: req.log };
    reply.header('x-request-id', req.id);
  });

  // Every route as registered, so a test can prove the OpenAPI document covers them all.
  const routeTable: { method: string; url: string }[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (r) => {
    for (const method of [r.method].flat()) routeTable.push({ method, url: r.url });
  });

  // Plugins install at run time: the catch-all routes find their routers here; workers.ts runs its bus.
  const plugins = new PluginHost({ database: deps.database, config: deps.config, clock: deps.clock, log: app.log });
  plugins.licenceCheck = licenceCheckFor(deps.config);
  app.decorate('plugins', plugins);

  await registerCors(app, deps.config);

  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler(notFoundHandler);
  await registerOpenApi(app, pkg.version);

  app.get(
    '/health',
    { schema: { tags: ['meta'], response: { 200: Type.Object({ status: Type.Literal('ok') }) } } },
    async () => ({ status: 'ok' as const }),
  );

  await app.register(async (scope) => {
    for (const register of authRoutes) await register(scope as App, deps);
  }, { prefix: '/auth' });

  await app.register(async (scope) => {
    scope.addHook('onRequest', adminGuard(deps));
    for (const register of adminRoutes) await register(scope as App, deps);
  }, { prefix: '/admin' });

  await app.register(async (scope) => {
    scope.addHook('onRequest', storeGuard(deps));
    scope.addHook('onRequest', customerAuth(deps));
    for (const register of storeRoutes) await register(scope as App, deps);
  }, { prefix: '/store' });

  return app as unknown as App;
}
