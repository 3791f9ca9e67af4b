import Fastify, { LogController } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { requestId } from './platform/ids.ts';
import { errorHandler, notFoundHandler } from './platform/http/error-handler.ts';
import { registerOpenApi } from './platform/http/openapi.ts';
import { lazySerializers, validatorCompiler } from './platform/http/validator.ts';
import { rejectUnsafeInput } from './platform/http/input-guard.ts';
import { storeLimits } from './platform/http/store-limits.ts';
import { shapeByFields } from './platform/http/fields-hook.ts';
import { registerReadRouting } from './platform/http/read-routing.ts';
import { Readiness } from './platform/http/readiness.ts';
import { registerCors } from './platform/http/cors.ts';
import { RepeatReads } from './platform/http/repeat-reads.ts';
import { lazyRequestLogger } from './platform/http/request-logger.ts';
import { proxyTrust } from './platform/http/client-ip.ts';
import { parseQuery } from './platform/http/query-string.ts';
import type { App, AppDeps } from './platform/http/types.ts';
import { stampDeclaredPermissions } from './platform/http/permissions.ts';
import { adminRoutes, authRoutes, hookRoutes, storeRoutes } from './routes.ts';
import { registerUploadStatic } from './modules/uploads/routes.ts';
import { adminGuard } from './modules/auth/admin-guard.ts';
import { auditScopeOf, recordUnwrittenAudit } from './modules/audit/scope.ts';
import { storeGuard } from './modules/api-keys/store-guard.ts';
import { customerAuth } from './modules/customers/customer-auth.ts';
import { sessionCsrf } from './modules/sessions/csrf.ts';
import fastifyCookie from '@fastify/cookie';
import { PluginLifecycle } from './modules/plugins/lifecycle.ts';
import { orderForPlugin } from './modules/orders/plugin-read.ts';
import { licenseCheckFor } from './modules/federation/license-check.ts';
import { adminCookieHooks, adminPanelSessionRoutes } from './modules/admin-panel/routes.ts';
import { adminPanelStatic, defaultPanelDir } from './modules/admin-panel/static.ts';
import { createProviders } from './platform/providers.ts';
import { registerMoney } from './platform/money/hooks.ts';
import { PACKAGE_VERSION } from './platform/package-root.ts';
import { CatalogLeases } from './modules/products/catalog-leases.ts';
import { settleWrites } from './modules/products/settle-writes.ts';
import { logDestination } from './platform/log-format.ts';

/** Builds the whole HTTP app without listening: main.ts listens, tests use `inject`. */
export async function buildApp(deps: AppDeps): Promise<App> {
  const readiness = new Readiness();
  // Repeats of the store's hot reads are answered from kept bytes by their routes' last onRequest hook (repeat-reads.ts).
  const repeatReads = new RepeatReads(deps.config);
  const logStream = deps.logger === false ? undefined : await logDestination(deps.config.logFormat);
  const app = Fastify({
    logger:
      deps.logger === false
        ? false
        : {
            level: deps.config.logLevel,
            redact: [
              'req.headers.authorization',
              'req.headers.cookie',
              'req.headers["x-publishable-api-key"]',
              'res.headers["set-cookie"]',
            ],
            ...(logStream ? { stream: logStream } : {}),
            ...(typeof deps.logger === 'object' ? deps.logger : {}),
          },
    genReqId: requestId,
    // Two info lines per request halved the store list's throughput; errors are still logged
    // (error-handler.ts) and every response carries its x-request-id. LOG_REQUESTS=true brings them back.
    logController: new LogController({ disableRequestLogging: !deps.config.logRequests }),
    // Each request's logger is made when it first logs (request-logger.ts).
    childLoggerFactory: lazyRequestLogger,
    // Errors raised before routing (a malformed URL, a bad content-type header) get our shape too.
    frameworkErrors: (err, req, reply) => errorHandler(err, req, reply),
    requestIdHeader: 'x-request-id',
    schemaController: { compilersFactory: { buildSerializer: lazySerializers } },
    bodyLimit: 1024 * 1024,
    // Only the hops TRUST_PROXY names as our proxies may decide req.ip (rate limits key on it).
    trustProxy: proxyTrust(deps.config.trustProxy),
    // Medusa's SDK sends qs-style queries: `id[]=a`, `id[0]=a`, `created_at[gte]=…`.
    // Path ids are validated by schema (IdParams), not cut off by the router's 100-char default.
    routerOptions: {
      maxParamLength: 1000,
      querystringParser: parseQuery,
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  // Medusa's SDK sends `content-type: application/json` with empty bodies on actions: treat as `{}`.
  const defaultJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if (body === '' || body === undefined) return done(null, {});
    return defaultJson(req, body as string, done);
  });

  // PostgreSQL: instances answer store reads from memory under a lease, and a write's answer waits
  // until every holder heard it (products/catalog-leases.ts).
  const catalogLeases = CatalogLeases.open(deps.database, app.log);
  app.decorate('catalogLeases', catalogLeases);
  if (catalogLeases) {
    const settle = settleWrites(catalogLeases);
    app.addHook('onRequest', settle.onRequest);
    app.addHook('onSend', settle.onSend);
    app.addHook('onClose', () => catalogLeases.close());
  }

  app.setValidatorCompiler(validatorCompiler);
  // NUL characters (PostgreSQL refuses them in text) and absurd nesting never reach a route: one check for every route.
  app.addHook('preValidation', rejectUnsafeInput);

  // Cookies for `connect.sid` sessions, signed with COOKIE_SECRET (registered before the surfaces use them).
  // With COOKIE_SECRET_PREVIOUS, @fastify/cookie signs with the first secret and reads with either.
  const { cookieSecret, cookieSecretPrevious } = deps.config;
  await app.register(fastifyCookie, {
    secret: cookieSecretPrevious ? [cookieSecret, cookieSecretPrevious] : cookieSecret,
  });

  // Payment, notification and tax providers of the running plugins: routes and workers call them here.
  const providers = createProviders(deps.config.providerTimeoutMs);
  app.decorate('providers', providers);

  // Fastify wants a starting value of the decoration's type; the onRequest hook sets every request's before a route reads it.
  app.decorateRequest('ctx', null as never);
  app.decorateRequest('actor', null);
  app.decorateRequest('store', null);
  app.decorateRequest('customer', null);
  // Hooks every request runs take a callback where they never wait: an async hook costs a promise
  // and a microtask turn per request, which showed in the store list's share of a bare route.
  app.addHook('onRequest', (req, reply, done) => {
    req.ctx = { db: deps.database.db, clock: deps.clock, log: req.log, providers };
    reply.header('x-request-id', req.id);
    done();
  });
  // Reads that may go to read replicas (DATABASE_READ_URL), and the write marker (read-routing.ts).
  if (deps.database.replicas) registerReadRouting(app, deps.database.replicas, deps.database.db);
  // Money in minor or whole units (AMOUNT_UNITS): one conversion for every route's marked fields.
  registerMoney(app, deps.config.amountUnits);

  // Every route as registered, so a test can prove the OpenAPI document covers them all.
  const routeTable: { method: string; url: string }[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (r) => {
    for (const method of [r.method].flat()) routeTable.push({ method, url: r.url });
  });
  stampDeclaredPermissions(app);

  // Plugins install at run time: the catch-all routes find their routers here; workers.ts runs its bus.
  const plugins = new PluginLifecycle({
    database: deps.database,
    config: deps.config,
    clock: deps.clock,
    log: app.log,
    providers,
    readApis: {
      retrieveOrder: (id) => orderForPlugin({ db: deps.database.db, clock: deps.clock, log: app.log }, id),
    },
    licenseCheck: licenseCheckFor(deps.config),
  });
  app.decorate('plugins', plugins);

  registerCors(app, deps.config);

  app.setErrorHandler(errorHandler);
  app.setNotFoundHandler(notFoundHandler);
  await registerOpenApi(app, PACKAGE_VERSION);

  // Liveness answers while the process runs (even draining); readiness (/ready) is what a load balancer routes by.
  app.get(
    '/health',
    { schema: { tags: ['meta'], summary: 'Liveness', response: { 200: Type.Object({ status: Type.Literal('ok') }) } } },
    async () => ({ status: 'ok' as const }),
  );
  readiness.register(app, deps.database);
  app.decorate('readiness', readiness);
  app.decorate('repeatReads', repeatReads);
  app.addHook('preClose', (done) => {
    repeatReads.close();
    done();
  });

  await app.register(
    async (scope) => {
      scope.addHook('onRequest', sessionCsrf(deps, 'auth'));
      for (const register of authRoutes) await register(scope, deps);
    },
    { prefix: '/auth' },
  );

  // The bundled admin panel at /app and its cookie login; its cookies reach /admin through the hooks below.
  await adminPanelStatic(app, deps.adminPanelDir ?? defaultPanelDir());
  await adminPanelSessionRoutes(app, deps);
  // Uploaded product images (local storage), public like the pages that show them.
  await registerUploadStatic(app, deps);

  await app.register(
    async (scope) => {
      for (const register of hookRoutes) await register(scope, deps);
    },
    { prefix: '/hooks' },
  );

  await app.register(
    async (scope) => {
      for (const hook of adminCookieHooks(deps)) scope.addHook('onRequest', hook);
      scope.addHook('onRequest', adminGuard(deps));
      // Every write's audit entry: in its own transaction (inTx), or just after one made without it.
      scope.addHook('onRequest', (req, _reply, done) => {
        req.ctx.audit = auditScopeOf(req);
        done();
      });
      scope.addHook('onSend', async (req, reply, payload) => {
        await recordUnwrittenAudit(req, reply, payload);
        return payload;
      });
      for (const register of adminRoutes) await register(scope, deps);
    },
    { prefix: '/admin' },
  );

  const limits = storeLimits(app, deps);
  await app.register(
    async (scope) => {
      // Counted before the key check, so requests without a valid key spend the budget too.
      scope.addHook('onRequest', limits.onRequest);
      scope.addHook('onRequest', storeGuard(deps));
      scope.addHook('onRequest', sessionCsrf(deps, 'store'));
      scope.addHook('onRequest', customerAuth(deps));
      scope.addHook('onSend', shapeByFields);
      for (const register of storeRoutes) await register(scope, deps);
    },
    { prefix: '/store' },
  );

  return app;
}
