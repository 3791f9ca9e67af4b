import { pageOf } from '../../platform/http/pagination.ts';
import { emptyBodyIsObject } from '../../platform/http/body.ts';
import { ok } from '../../platform/http/responses.ts';
import { IdParams } from '../../platform/http/schema-types.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import {
  DeliveryEnvelope,
  DeliveryList,
  DeliveryQuery,
  PreviewBody,
  PreviewEnvelope,
  ProviderList,
  TemplateList,
  TemplateParams,
} from './schema.ts';
import {
  getDelivery,
  listDeliveries,
  listNotificationProviders,
  listTemplates,
  previewTemplate,
  retryDelivery,
} from './service.ts';
import { adminResource } from '../../platform/http/permissions.ts';

const tags = ['notifications'];

/** The admin's view of the shop's messages: delivery history, templates and their preview, providers. */
export const adminMessagingRoutes: RouteModule = adminResource('settings', (app) => {
  app.get(
    '/notification-deliveries',
    {
      schema: {
        tags,
        summary: 'Messages sent (or not) through notification providers, newest first',
        querystring: DeliveryQuery,
        response: ok(DeliveryList),
      },
    },
    async (req) => {
      const page = pageOf(req.query, 50);
      return { ...(await listDeliveries(req.ctx, req.query, page)), ...page };
    },
  );

  app.get(
    '/notification-deliveries/:id',
    {
      schema: { tags, summary: 'One message and how its tries went', params: IdParams, response: ok(DeliveryEnvelope) },
    },
    async (req) => ({ notification_delivery: await getDelivery(req.ctx, req.params.id) }),
  );

  app.post(
    '/notification-deliveries/:id/retry',
    {
      schema: { tags, summary: 'Send a message again now', params: IdParams, response: ok(DeliveryEnvelope) },
      preValidation: emptyBodyIsObject,
    },
    async (req) => ({ notification_delivery: await retryDelivery(req.ctx, req.params.id) }),
  );

  app.get(
    '/notification-templates',
    { schema: { tags, summary: 'The shop’s message templates with their sample data', response: ok(TemplateList) } },
    async () => listTemplates(),
  );

  app.post(
    '/notification-templates/:name/preview',
    {
      schema: {
        tags,
        summary: 'Render a template with its sample data (overridden by `data`)',
        params: TemplateParams,
        body: PreviewBody,
        response: ok(PreviewEnvelope),
      },
      preValidation: emptyBodyIsObject,
    },
    async (req) => previewTemplate(req.params.name, req.body.data),
  );

  app.get(
    '/notification-providers',
    { schema: { tags, summary: 'Notification providers running in the shop', response: ok(ProviderList) } },
    async (req) => listNotificationProviders(req.server.providers),
  );
});
