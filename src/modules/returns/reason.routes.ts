import { deletedEnvelope, pageOf } from '../../platform/http/pagination.ts';
import { ok } from '../../platform/http/responses.ts';
import { IdParams } from '../../platform/http/schema-types.ts';
import type { App, RouteModule } from '../../platform/http/types.ts';
import {
  CreateReturnReasonBody,
  ReturnReasonEnvelope,
  ReturnReasonList,
  ReturnReasonQuery,
  UpdateReturnReasonBody,
} from './reason-schema.ts';
import { createReason, deleteReason, getReason, listReasons, updateReason } from './reasons.ts';
import { adminResource } from '../../platform/http/permissions.ts';

const tags = ['return-reasons'];

const listRoute = (app: App) => {
  app.get(
    '/return-reasons',
    {
      schema: { tags, summary: 'List return reasons', querystring: ReturnReasonQuery, response: ok(ReturnReasonList) },
    },
    async (req) => {
      const page = pageOf(req.query, 50);
      return { ...(await listReasons(req.ctx, req.query, page)), ...page };
    },
  );
  app.get(
    '/return-reasons/:id',
    { schema: { tags, summary: 'Get a return reason', params: IdParams, response: ok(ReturnReasonEnvelope) } },
    async (req) => ({ return_reason: await getReason(req.ctx, req.params.id) }),
  );
};

export const adminReturnReasonRoutes: RouteModule = adminResource('orders', (app) => {
  listRoute(app);
  app.post(
    '/return-reasons',
    {
      schema: {
        tags,
        summary: 'Create a return reason (under a parent with parent_return_reason_id)',
        body: CreateReturnReasonBody,
        response: ok(ReturnReasonEnvelope),
      },
    },
    async (req) => ({ return_reason: await createReason(req.ctx, req.body) }),
  );
  app.post(
    '/return-reasons/:id',
    {
      schema: {
        tags,
        summary: 'Update a return reason',
        params: IdParams,
        body: UpdateReturnReasonBody,
        response: ok(ReturnReasonEnvelope),
      },
    },
    async (req) => ({ return_reason: await updateReason(req.ctx, req.params.id, req.body) }),
  );
  app.delete(
    '/return-reasons/:id',
    {
      schema: {
        tags,
        summary: 'Delete a return reason (its children lose their parent)',
        params: IdParams,
        response: ok(deletedEnvelope('return_reason')),
      },
    },
    async (req) => {
      await deleteReason(req.ctx, req.params.id);
      return { id: req.params.id, object: 'return_reason', deleted: true as const };
    },
  );
});

export const storeReturnReasonRoutes: RouteModule = (app) => listRoute(app);
