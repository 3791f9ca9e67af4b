import { emptyBodyIsObject } from '../../platform/http/body.ts';
import { pageOf } from '../../platform/http/pagination.ts';
import { ok } from '../../platform/http/responses.ts';
import { IdParams } from '../../platform/http/schema-types.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import { EmptyBody, NotificationEnvelope, NotificationList, NotificationQuery, ReadAllResponse } from './schema.ts';
import { getNotification, listNotifications, markAllRead, markRead } from './service.ts';
import { adminResource } from '../../platform/http/permissions.ts';

const tags = ['notifications'];

export const notificationRoutes: RouteModule = adminResource('settings', (app) => {
  app.get(
    '/notifications',
    {
      schema: {
        tags,
        summary: 'List notifications, unread first, then newest first',
        querystring: NotificationQuery,
        response: ok(NotificationList),
      },
    },
    async (req) => {
      const page = pageOf(req.query, 50);
      return { ...(await listNotifications(req.ctx, { read: req.query.read, type: req.query.type }, page)), ...page };
    },
  );

  app.get(
    '/notifications/:id',
    { schema: { tags, summary: 'Get a notification', params: IdParams, response: ok(NotificationEnvelope) } },
    async (req) => ({ notification: await getNotification(req.ctx, req.params.id) }),
  );

  app.post(
    '/notifications/read-all',
    {
      schema: { tags, summary: 'Mark every unread notification read', body: EmptyBody, response: ok(ReadAllResponse) },
      preValidation: emptyBodyIsObject,
    },
    async (req) => markAllRead(req.ctx),
  );

  app.post(
    '/notifications/:id/read',
    {
      schema: {
        tags,
        summary: 'Mark a notification read (idempotent: keeps the first read time)',
        params: IdParams,
        body: EmptyBody,
        response: ok(NotificationEnvelope),
      },
      preValidation: emptyBodyIsObject,
    },
    async (req) => ({ notification: await markRead(req.ctx, req.params.id) }),
  );
});
