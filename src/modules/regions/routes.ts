import { deleteByIdRoute } from '../../platform/http/delete-route.ts';
import { pageOf } from '../../platform/http/pagination.ts';
import { ok } from '../../platform/http/responses.ts';
import { IdParams } from '../../platform/http/schema-types.ts';
import type { App, RouteModule } from '../../platform/http/types.ts';
import {
  AdminRegionEnvelope,
  AdminRegionQuery,
  CreateRegionBody,
  RegionEnvelope,
  RegionList,
  StoreRegionQuery,
  UpdateRegionBody,
} from './schema.ts';
import {
  createRegion,
  deleteRegion,
  listRegions,
  retrieveRegion,
  updateRegion,
  withPaymentProviders,
} from './service.ts';
import { adminResource } from '../../platform/http/permissions.ts';

const tags = ['regions'];
/** A region may name the payment providers that plugins run on this instance. */
const running = (app: App) => (id: string) => app.providers.payment.has(id);

export const adminRegionRoutes: RouteModule = adminResource('settings', (app) => {
  app.get(
    '/regions',
    { schema: { tags, summary: 'List regions', querystring: AdminRegionQuery, response: ok(RegionList) } },
    async (req) => {
      const page = pageOf(req.query, 50);
      return { ...(await listRegions(req.ctx, req.query, page)), ...page };
    },
  );

  app.get(
    '/regions/:id',
    { schema: { tags, summary: 'Get a region', params: IdParams, response: ok(AdminRegionEnvelope) } },
    async (req) => ({
      region: await withPaymentProviders(
        req.ctx,
        await retrieveRegion(req.ctx, req.params.id, 'admin'),
        running(req.server),
      ),
    }),
  );

  app.post(
    '/regions',
    { schema: { tags, summary: 'Create a region', body: CreateRegionBody, response: ok(AdminRegionEnvelope) } },
    async (req) => {
      const known = running(req.server);
      return { region: await withPaymentProviders(req.ctx, await createRegion(req.ctx, req.body, known), known) };
    },
  );

  const updateSchema = {
    tags,
    summary: 'Update a region',
    params: IdParams,
    body: UpdateRegionBody,
    response: ok(AdminRegionEnvelope),
  };
  for (const method of ['POST', 'PATCH'] as const) {
    app.route({
      method,
      url: '/regions/:id',
      schema: updateSchema,
      handler: async (req) => {
        const known = running(req.server);
        const region = await updateRegion(req.ctx, req.params.id, req.body, known);
        return { region: await withPaymentProviders(req.ctx, region, known) };
      },
    });
  }

  deleteByIdRoute(app, '/regions/:id', {
    tags,
    summary: 'Delete a region (frees its countries)',
    object: 'region',
    remove: (req) => deleteRegion(req.ctx, req.params.id),
  });
});

export const storeRegionRoutes: RouteModule = (app) => {
  app.get(
    '/regions',
    { schema: { tags, summary: 'List regions', querystring: StoreRegionQuery, response: ok(RegionList) } },
    async (req) => {
      const page = pageOf(req.query, 50);
      return { ...(await listRegions(req.ctx, { q: req.query.q, id: req.query.id }, page)), ...page };
    },
  );

  app.get(
    '/regions/:id',
    { schema: { tags, summary: 'Get a region', params: IdParams, response: ok(RegionEnvelope) } },
    async (req) => ({ region: await retrieveRegion(req.ctx, req.params.id, 'store') }),
  );
};
