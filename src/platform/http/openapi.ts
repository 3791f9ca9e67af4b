import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { ERROR_CODES, ERROR_STATUS } from './error-codes.ts';
import { ErrorBody } from './errors.ts';
import type { App } from './types.ts';

/** OpenAPI 3.1 built from the route schemas (every route declares one), JSON at /openapi.json, UI at /docs. */
export async function registerOpenApi(app: App, version: string) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Emporium API',
        version,
        description:
          'Shop (admin, store, auth) and marketplace surfaces. Errors are `{ type, message, code }`; the codes are listed in the `Error` schema.',
      },
      components: {
        schemas: { Error: errorSchema() },
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          publishableKey: { type: 'apiKey', in: 'header', name: 'x-publishable-api-key' },
        },
      },
    },
    transform: ({ schema, url }) => {
      const s = { ...(schema as Record<string, unknown>) };
      if (url.startsWith('/admin')) s.security = [{ bearer: [] }];
      if (url.startsWith('/store') && !url.startsWith('/store/marketplace')) s.security = [{ publishableKey: [] }];
      if (!s.tags) s.tags = [url.split('/')[1] || 'meta'];
      return { schema: s, url };
    },
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  registerDocsUi(app);
}

/**
 * The error body with its codes: `code` as an enum, and `x-error-codes` giving each code's status,
 * type and message, so a client (or a generated one) can switch on a code and know what it means.
 * A code with several message templates lists them all in `messages`; `message` is its first.
 */
function errorSchema() {
  const codes = Object.entries(ERROR_CODES).map(([code, e]) => ({
    code,
    status: ERROR_STATUS[e.type],
    type: e.type,
    ...(typeof e.message === 'string' ? { message: e.message } : { message: e.message[0], messages: e.message }),
  }));
  return {
    ...ErrorBody,
    required: [...ErrorBody.required],
    properties: {
      ...ErrorBody.properties,
      type: { type: 'string' as const, enum: Object.keys(ERROR_STATUS) },
      code: {
        type: 'string' as const,
        description: 'Stable error code; modules not yet moved to codes may send none or another',
        enum: Object.keys(ERROR_CODES),
      },
    },
    'x-error-codes': codes,
  };
}

/** Hop-by-hop headers of the inner response that the outer reply sets itself. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'date']);

/**
 * The human docs (Swagger UI) at /docs. Loading the UI plugin and its static files was a fifth of
 * start-up for pages few ever open, so they live in a small inner app built on the
 * first /docs request (the document is final by then) and answered through `inject`.
 */
function registerDocsUi(app: App): void {
  let docs: Promise<FastifyInstance> | undefined;
  const build = async () => {
    const [{ default: Fastify }, { default: swaggerUi }] = await Promise.all([
      import('fastify'),
      import('@fastify/swagger-ui'),
    ]);
    const inner = Fastify({ logger: false });
    // @fastify/swagger types its static document as OpenAPI 2 or 3.0 only; this one is its own 3.1 output.
    await inner.register(swagger, { mode: 'static', specification: { document: app.swagger() as never } });
    await inner.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list' } });
    await inner.ready();
    return inner;
  };
  app.addHook('onClose', async () => {
    const inner = await docs?.catch(() => undefined);
    await inner?.close();
  });
  for (const url of ['/docs', '/docs/*'])
    app.route({
      method: ['GET', 'HEAD'],
      url,
      schema: { hide: true },
      handler: async (req, reply) => {
        docs ??= build().catch((err) => {
          docs = undefined; // a failed build is tried again on the next request
          throw err;
        });
        const res = await (await docs).inject({ method: req.method as 'GET' | 'HEAD', url: req.url });
        for (const [name, value] of Object.entries(res.headers))
          if (value !== undefined && !HOP_BY_HOP.has(name)) reply.header(name, value);
        return reply.code(res.statusCode).send(res.rawPayload);
      },
    });
}
