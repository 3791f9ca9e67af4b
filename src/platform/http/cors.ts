import cors from '@fastify/cors';
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
];

function surfaceOf(url: string): keyof Config['cors'] | null {
  if (url.startsWith('/store/marketplace')) return null; // server-to-server federation surface
  if (url.startsWith('/store')) return 'store';
  if (url.startsWith('/admin')) return 'admin';
  if (url.startsWith('/auth')) return 'auth';
  return null;
}

/**
 * Browser storefronts and admin panels on other origins (with credentials, for `connect.sid`):
 * each surface answers only the origins configured for it; everything else gets no CORS headers.
 */
export async function registerCors(app: App, config: Config): Promise<void> {
  await app.register(cors, {
    hook: 'onRequest',
    delegator: (req, callback) => {
      const surface = surfaceOf(req.url ?? '');
      const origins = surface ? config.cors[surface] : [];
      callback(null, {
        origin: origins.length ? origins : false,
        credentials: true,
        allowedHeaders: ALLOWED_HEADERS,
        maxAge: 600,
      });
    },
  });
}
