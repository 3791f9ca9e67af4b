import { deleteByIdRoute } from '../../platform/http/delete-route.ts';
import { pageOf } from '../../platform/http/pagination.ts';
import { ok } from '../../platform/http/responses.ts';
import { IdParams } from '../../platform/http/schema-types.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import {
  CreatedWebhookEnvelope,
  CreateWebhookBody,
  DeliveryDetailEnvelope,
  DeliveryEnvelope,
  DeliveryList,
  DeliveryListQuery,
  DeliveryParams,
  ReplayResult,
  UpdateWebhookBody,
  WebhookEnvelope,
  WebhookList,
  WebhookListQuery,
} from './schema.ts';
import * as service from './service.ts';
import { adminResource } from '../../platform/http/permissions.ts';

const tags = ['webhooks'];

export const adminWebhookRoutes: RouteModule = adminResource('developer', (app, deps) => {
  const policy: service.WebhookPolicy = {
    encryptionKey: deps.config.encryptionKey,
    blockPrivate: deps.config.production && !deps.config.webhookAllowPrivate,
  };

  app.post(
    '/webhooks',
    {
      schema: {
        tags,
        summary: 'Subscribe a URL to events (the signing secret is returned only here)',
        body: CreateWebhookBody,
        response: ok(CreatedWebhookEnvelope),
      },
    },
    async (req) => ({ webhook: await service.createWebhook(req.ctx, policy, req.body) }),
  );

  app.get(
    '/webhooks',
    {
      schema: { tags, summary: 'List webhook subscriptions', querystring: WebhookListQuery, response: ok(WebhookList) },
    },
    async (req) => {
      const page = pageOf(req.query);
      return { ...(await service.listWebhooks(req.ctx, page)), ...page };
    },
  );

  app.get(
    '/webhooks/:id',
    { schema: { tags, summary: 'Get a webhook subscription', params: IdParams, response: ok(WebhookEnvelope) } },
    async (req) => ({ webhook: await service.getWebhook(req.ctx, req.params.id) }),
  );

  const updateSchema = {
    tags,
    summary: 'Change url, events or active (not the secret)',
    params: IdParams,
    body: UpdateWebhookBody,
    response: ok(WebhookEnvelope),
  };
  for (const method of ['POST', 'PATCH'] as const) {
    app.route({
      method,
      url: '/webhooks/:id',
      schema: updateSchema,
      handler: async (req) => ({ webhook: await service.updateWebhook(req.ctx, policy, req.params.id, req.body) }),
    });
  }

  deleteByIdRoute(app, '/webhooks/:id', {
    tags,
    summary: 'Delete a webhook subscription (its open deliveries stop)',
    object: 'webhook',
    remove: (req) => service.deleteWebhook(req.ctx, req.params.id),
  });

  app.get(
    '/webhooks/:id/deliveries',
    {
      schema: {
        tags,
        summary: 'Delivery history, newest first',
        params: IdParams,
        querystring: DeliveryListQuery,
        response: ok(DeliveryList),
      },
    },
    async (req) => {
      const page = pageOf(req.query);
      return { ...(await service.listDeliveries(req.ctx, req.params.id, req.query.status, page)), ...page };
    },
  );

  app.post(
    '/webhooks/:id/deliveries/replay-dead',
    {
      schema: {
        tags,
        summary: 'Make every dead delivery of this subscription due again',
        params: IdParams,
        response: ok(ReplayResult),
      },
    },
    async (req) => service.replayDeadDeliveries(req.ctx, req.params.id),
  );

  app.get(
    '/webhooks/:id/deliveries/:delivery_id',
    {
      schema: {
        tags,
        summary: 'A delivery with its payload and attempts',
        params: DeliveryParams,
        response: ok(DeliveryDetailEnvelope),
      },
    },
    async (req) => ({ delivery: await service.getDelivery(req.ctx, req.params.id, req.params.delivery_id) }),
  );

  app.post(
    '/webhooks/:id/deliveries/:delivery_id/retry',
    {
      schema: {
        tags,
        summary: 'Send a delivery again now (also a dead one)',
        params: DeliveryParams,
        response: ok(DeliveryEnvelope),
      },
    },
    async (req) => ({ delivery: await service.retryDelivery(req.ctx, req.params.id, req.params.delivery_id) }),
  );
});
