import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { HttpMethod } from '../../../plugin-sdk/index.ts';
import { appError, ErrorBody, errorTypeOfStatus, errors } from '../../platform/http/errors.ts';
import type { App } from '../../platform/http/types.ts';
import { PluginTimeoutError, withTimeout } from './timeout.ts';
import { PluginUnavailableError } from './sandbox/plugin-process.ts';
import { SerializedJson } from './sandbox/serve-ctx.ts';
import { RuntimeParams } from './schema.ts';

/** Credentials of the caller stay with the shop: a plugin handler never sees them. */
const HIDDEN_HEADERS = new Set(['authorization', 'cookie']);

export function runtimeRouteSchema(surface: 'admin' | 'store') {
  return {
    tags: ['plugins (runtime)'],
    summary:
      surface === 'admin'
        ? "A plugin's own admin routes, mounted at /admin/plugins/{manifestId}/… (admin authentication)"
        : "A plugin's own store routes, mounted at /store/plugins/{manifestId}/… (publishable key)",
    params: RuntimeParams,
    response: {
      200: Type.Unknown({ description: 'whatever the plugin answers (JSON)' }),
      204: Type.Null(),
      '4xx': ErrorBody,
      '5xx': ErrorBody,
    },
  };
}

type RuntimeRequest = FastifyRequest<{ Params: { manifestId: string; '*': string } }>;

/**
 * The catch-all of a surface: finds the plugin's router (live plugins only, so an uninstalled
 * plugin's paths are 404 at once) and runs the handler with a timeout. A plugin error is the
 * plugin's 4xx when it threw one, else a logged, counted 500; a hang is a 504. The shop goes on.
 */
export async function dispatchPluginRoute(
  app: App,
  surface: 'admin' | 'store',
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const req = request as RuntimeRequest;
  const { manifestId, '*': rest } = req.params;
  const path = `/${rest}`;
  const match = app.plugins.host.router(surface, manifestId)?.match(req.method, path);
  if (!match) throw errors.notFound('route_not_found', { method: req.method, path: req.url.split('?')[0] });
  const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !HIDDEN_HEADERS.has(k)));
  const timeoutMs = app.plugins.deps.config.pluginRouteTimeoutMs;
  let result: unknown;
  try {
    const call = Promise.resolve().then(() =>
      match.handler({
        method: req.method as HttpMethod,
        path,
        params: match.params,
        query: (req.query ?? {}) as Record<string, unknown>,
        body: req.body ?? null,
        headers,
      }),
    );
    result = await withTimeout(call, timeoutMs, `plugin ${manifestId} ${req.method} ${path}`);
    if (result instanceof SerializedJson) result = result.text;
    else if (result !== undefined) result = JSON.stringify(result);
  } catch (err) {
    if (err instanceof PluginUnavailableError) {
      app.plugins.host.stats.routeErrors++;
      throw appError('plugin_restarting', { id: manifestId });
    }
    if (err instanceof PluginTimeoutError) {
      app.plugins.host.stats.routeTimeouts++;
      req.log.warn({ plugin: manifestId, path, timeoutMs }, 'plugin route timed out');
      throw appError('plugin_route_timeout', { id: manifestId, ms: timeoutMs });
    }
    const status = (err as { status?: unknown })?.status;
    if (typeof status === 'number' && Number.isInteger(status) && status >= 400 && status < 500) {
      return reply
        .status(status)
        .send({ type: errorTypeOfStatus(status), message: String((err as Error).message ?? 'Request refused') });
    }
    app.plugins.host.stats.routeErrors++;
    req.log.error({ err, plugin: manifestId, path }, 'plugin route handler failed');
    throw appError('plugin_route_failed', { id: manifestId });
  }
  if (result === undefined) return reply.status(204).send();
  // Already serialized: sent as is, whatever shape the plugin chose.
  return reply.type('application/json; charset=utf-8').send(result as string);
}
