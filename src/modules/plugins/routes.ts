import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { pageOf } from '../../platform/http/pagination.ts';
import { ok } from '../../platform/http/responses.ts';
import { IdParams } from '../../platform/http/schema-types.ts';
import type { App, RouteModule } from '../../platform/http/types.ts';
import { HTTP_METHODS } from './plugin-router.ts';
import { dispatchPluginRoute, runtimeRouteSchema } from './runtime-routes.ts';
import {
  ApproveBody,
  ConfigEnvelope,
  ConfigureBody,
  InstallBody,
  PluginDeleted,
  PluginDetailEnvelope,
  PluginEnvelope,
  PluginList,
  PluginListQuery,
  UpdateBody,
  UpdatesResponse,
} from './schema.ts';
import * as svc from './service.ts';
import { checkUpdates } from './updates.ts';
import { adminResource } from '../../platform/http/permissions.ts';

const tags = ['plugins'];
const AdminBundle = Type.Unsafe<Buffer>({ type: 'string', description: 'ES module (application/javascript)' });

/** The service context with this instance's plugin host. */
const pctx = (app: App, req: FastifyRequest): svc.PluginsCtx => ({ ...req.ctx, plugins: app.plugins });

/** `/admin/plugins…`: lifecycle, configuration, updates, admin bundles, and the plugins' own admin routes. */
export const adminPluginRoutes: RouteModule = adminResource('plugins', (app, deps) => {
  app.get(
    '/plugins',
    { schema: { tags, summary: 'Installed plugins', querystring: PluginListQuery, response: ok(PluginList) } },
    async (req) => {
      const page = pageOf(req.query, 50);
      return { ...(await svc.listPlugins(pctx(app, req), page)), ...page };
    },
  );

  app.post(
    '/plugins/install',
    {
      schema: {
        tags,
        summary: 'Install a plugin without a restart (202; poll GET /admin/plugins/{id})',
        body: InstallBody,
        response: { ...ok(PluginEnvelope), 202: PluginEnvelope },
      },
    },
    async (req, reply) => reply.status(202).send({ plugin: await svc.installPlugin(pctx(app, req), req.body) }),
  );

  app.get(
    '/plugins/check-updates',
    { schema: { tags, summary: 'Newer marketplace versions of the installed plugins', response: ok(UpdatesResponse) } },
    async (req) => {
      const { updates } = await checkUpdates(req.ctx, deps.config);
      return {
        updates: updates.map(({ id, current, latest, changelog_url }) => ({ id, current, latest, changelog_url })),
      };
    },
  );

  app.get(
    '/plugins/:id',
    {
      schema: {
        tags,
        summary: 'One plugin (poll while installing or updating), with how its process runs on this instance',
        params: IdParams,
        response: ok(PluginDetailEnvelope),
      },
    },
    async (req) => ({
      plugin: await svc.getPluginDetail(pctx(app, req), req.params.id),
    }),
  );

  app.delete(
    '/plugins/:id',
    { schema: { tags, summary: 'Uninstall (its tables are kept)', params: IdParams, response: ok(PluginDeleted) } },
    async (req) => svc.uninstallPlugin(pctx(app, req), req.params.id),
  );

  app.get(
    '/plugins/:id/configure',
    { schema: { tags, summary: 'Configuration, secrets masked', params: IdParams, response: ok(ConfigEnvelope) } },
    async (req) => ({
      config: await svc.getPluginConfig(pctx(app, req), req.params.id),
    }),
  );

  app.post(
    '/plugins/:id/configure',
    {
      schema: {
        tags,
        summary: 'Validate and save configuration; the running plugin gets it at once',
        params: IdParams,
        body: ConfigureBody,
        response: ok(ConfigEnvelope),
      },
    },
    async (req) => ({ config: await svc.configurePlugin(pctx(app, req), req.params.id, req.body.config) }),
  );

  app.post(
    '/plugins/:id/update',
    {
      schema: {
        tags,
        summary: 'Update to a newer version (verified like an install; the old one runs until the new one loads)',
        params: IdParams,
        body: UpdateBody,
        response: ok(PluginEnvelope),
      },
    },
    async (req) => ({ plugin: await svc.updatePlugin(pctx(app, req), req.params.id, req.body.version) }),
  );

  app.post(
    '/plugins/:id/update/approve',
    {
      schema: {
        tags,
        summary: 'Approve the rights a waiting update asks for (see pending_update); that update then runs',
        params: IdParams,
        body: ApproveBody,
        response: ok(PluginEnvelope),
      },
    },
    async (req) => ({ plugin: await svc.approvePluginUpdate(pctx(app, req), req.params.id, req.body.version) }),
  );

  app.get(
    '/plugins/:id/admin-bundle',
    {
      schema: {
        tags,
        summary: "The plugin's admin extension (ETag = its sha256)",
        params: IdParams,
        produces: ['application/javascript'],
        response: { ...ok(AdminBundle), 304: Type.Null() },
      },
    },
    async (req, reply) => {
      const etag = req.headers['if-none-match']?.replace(/^W\//, '').replace(/"/g, '');
      const { sha256, bytes } = await svc.adminBundle(req.ctx, req.params.id, etag);
      reply
        .header('etag', `"${sha256}"`)
        .header('x-content-sha256', sha256)
        .header('cache-control', 'private, no-cache');
      if (!bytes) return reply.status(304).send(null);
      return reply.type('application/javascript; charset=utf-8').send(bytes);
    },
  );

  // One route per method, so each takes its own permission (GET plugins:read, the rest plugins:write).
  for (const method of HTTP_METHODS)
    app.route({
      method,
      url: '/plugins/:manifestId/*',
      schema: runtimeRouteSchema('admin'),
      handler: (req, reply) => dispatchPluginRoute(app, 'admin', req, reply),
    });
});

/** `/store/plugins/{manifestId}/*`: the plugins' store routes, behind the publishable-key check. */
export const storePluginRoutes: RouteModule = (app) => {
  app.route({
    method: [...HTTP_METHODS],
    url: '/plugins/:manifestId/*',
    schema: runtimeRouteSchema('store'),
    handler: (req, reply) => dispatchPluginRoute(app, 'store', req, reply),
  });
};
