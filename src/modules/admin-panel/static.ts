import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyReply } from 'fastify';
import type { App } from '../../platform/http/types.ts';
import { PACKAGE_ROOT } from '../../platform/package-root.ts';

/**
 * The panel's pages may load only our own scripts, styles and frames and talk only to this
 * origin; nothing may frame them. Extensions run in /app/sandbox.html, which has its own policy.
 */
export const PANEL_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The extension frame: an opaque origin (`sandbox allow-scripts`, even if opened directly), no
 * network at all (the panel answers AdminApi.fetch over postMessage), scripts only from our file
 * and from the verified bundle the frame turns into a blob: URL.
 */
export const SANDBOX_CSP = [
  'sandbox allow-scripts',
  "default-src 'none'",
  "script-src 'self' blob:",
  "style-src 'unsafe-inline'",
  'img-src data: blob:',
  "frame-ancestors 'self'",
].join('; ');

const IMMUTABLE = 'public, max-age=31536000, immutable';

/** The built panel: `admin/dist` of the checkout this file belongs to. */
export function defaultPanelDir(): string {
  return path.join(PACKAGE_ROOT, 'admin', 'dist');
}

function pageHeaders(reply: FastifyReply, compressedOrNot: string): void {
  // With preCompressed, a browser that accepts br or gzip is sent `index.html.br`: the page's
  // headers go by the file it is a compressed copy of.
  const file = compressedOrNot.replace(/\.(br|gz)$/, '');
  reply.header('x-content-type-options', 'nosniff');
  if (file.includes(`${path.sep}assets${path.sep}`) || file.startsWith('assets/')) {
    reply.header('cache-control', IMMUTABLE);
    return;
  }
  reply.header('cache-control', 'no-cache');
  if (file.endsWith('.html')) {
    reply.header('content-security-policy', file.endsWith('sandbox.html') ? SANDBOX_CSP : PANEL_CSP);
    reply.header('referrer-policy', 'same-origin');
  }
}

/**
 * Serves the built panel under /app: hashed assets cached for a year, everything else revalidated,
 * and any other path under /app answered with index.html so the panel's router can take it.
 * Without a build, /app says how to make one.
 */
export async function adminPanelStatic(app: App, distDir: string): Promise<void> {
  app.get('/app', { schema: { tags: ['admin panel'], summary: 'Redirects to /app/' } }, (req, reply) =>
    reply.redirect(`/app/${req.url.slice(4)}`),
  );
  await app.register(
    async (scope) => {
      if (!existsSync(path.join(distDir, 'index.html'))) {
        scope.get(
          '/*',
          { schema: { tags: ['admin panel'], summary: 'The admin panel (not built)' } },
          async (_req, reply) =>
            reply
              .status(503)
              .type('text/plain; charset=utf-8')
              .send('The admin panel is not built: run `npm run build:admin` (npm install does it).'),
        );
        return;
      }
      await scope.register(fastifyStatic, {
        root: distDir,
        prefix: '/',
        index: false,
        preCompressed: true,
        schemaHide: false,
        cacheControl: false,
        setHeaders: pageHeaders,
      });
      scope.route({
        method: 'GET',
        url: '/',
        prefixTrailingSlash: 'slash',
        schema: { tags: ['admin panel'], summary: 'The admin panel' },
        handler: (_req, reply) => reply.sendFile('index.html'),
      });
      scope.setNotFoundHandler((req, reply) => {
        // A missing hashed asset is a 404 (an old page after a deploy), not the app's HTML.
        if (req.url.startsWith('/app/assets/') || (req.method !== 'GET' && req.method !== 'HEAD')) {
          return reply
            .status(404)
            .send({ type: 'not_found', message: `Route ${req.method} ${req.url.split('?')[0]} not found` });
        }
        return reply.sendFile('index.html');
      });
    },
    { prefix: '/app' },
  );
}
