import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { App } from './types.ts';

/** OpenAPI 3.1 built from the route schemas (every route declares one), JSON at /openapi.json, UI at /docs. */
export async function registerOpenApi(app: App, version: string) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Emporium API',
        version,
        description: 'Shop (admin, store, auth) and marketplace surfaces. Errors are `{ type, message }`.',
      },
      components: {
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
      return { schema: s as never, url };
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list' } });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
