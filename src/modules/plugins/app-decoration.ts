import type { PluginLifecycle } from './lifecycle.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** This instance's plugins: their lifecycle, and in `host` the running ones (routers looked up per request, subscribers on its bus); decorated in src/app.ts. */
    plugins: PluginLifecycle;
  }
}
