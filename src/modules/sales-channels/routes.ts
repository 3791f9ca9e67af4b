import { deleteByIdRoute } from '../../platform/http/delete-route.ts';
import { pageOf } from '../../platform/http/pagination.ts';
import { ok } from '../../platform/http/responses.ts';
import { IdParams } from '../../platform/http/schema-types.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import { invalidateKeyCache } from '../api-keys/store-guard.ts';
import {
  BatchLinkBody,
  CreateSalesChannelBody,
  SalesChannelEnvelope,
  SalesChannelList,
  SalesChannelQuery,
  UpdateSalesChannelBody,
} from './schema.ts';
import {
  batchSalesChannelProducts,
  createSalesChannel,
  deleteSalesChannel,
  getSalesChannel,
  listSalesChannels,
  updateSalesChannel,
} from './service.ts';
import { adminResource } from '../../platform/http/permissions.ts';

const tags = ['sales-channels'];

export const salesChannelRoutes: RouteModule = adminResource('settings', (app, deps) => {
  app.get(
    '/sales-channels',
    {
      schema: { tags, summary: 'List sales channels', querystring: SalesChannelQuery, response: ok(SalesChannelList) },
    },
    async (req) => {
      const page = pageOf(req.query, 20);
      const { q, id, name, is_disabled } = req.query;
      return { ...(await listSalesChannels(req.ctx, { q, id, name, is_disabled }, page)), ...page };
    },
  );

  app.get(
    '/sales-channels/:id',
    { schema: { tags, summary: 'Get a sales channel', params: IdParams, response: ok(SalesChannelEnvelope) } },
    async (req) => ({ sales_channel: await getSalesChannel(req.ctx, req.params.id) }),
  );

  app.post(
    '/sales-channels',
    {
      schema: {
        tags,
        summary: 'Create a sales channel',
        body: CreateSalesChannelBody,
        response: ok(SalesChannelEnvelope),
      },
    },
    async (req) => ({ sales_channel: await createSalesChannel(req.ctx, req.body) }),
  );

  const updateSchema = {
    tags,
    summary: 'Update a sales channel',
    params: IdParams,
    body: UpdateSalesChannelBody,
    response: ok(SalesChannelEnvelope),
  };
  for (const method of ['POST', 'PATCH'] as const) {
    app.route({
      method,
      url: '/sales-channels/:id',
      schema: updateSchema,
      handler: async (req) => ({ sales_channel: await updateSalesChannel(req.ctx, req.params.id, req.body) }),
    });
  }

  deleteByIdRoute(app, '/sales-channels/:id', {
    tags,
    summary: 'Delete a sales channel (soft), unlinking its keys and products',
    object: 'sales-channel',
    remove: async (req) => {
      await deleteSalesChannel(req.ctx, req.params.id);
      // Publishable keys lose this channel: the store must see that on its next request.
      invalidateKeyCache(deps.database);
    },
  });

  app.post(
    '/sales-channels/:id/products',
    {
      schema: {
        tags,
        summary: 'Add products to and remove them from a sales channel',
        params: IdParams,
        body: BatchLinkBody,
        response: ok(SalesChannelEnvelope),
      },
    },
    async (req) => ({ sales_channel: await batchSalesChannelProducts(req.ctx, req.params.id, req.body) }),
  );
});
