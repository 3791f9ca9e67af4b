import { deleteByIdRoute } from '../../platform/http/delete-route.ts';
import { pageOf } from '../../platform/http/pagination.ts';
import { adminResource } from '../../platform/http/permissions.ts';
import { ok } from '../../platform/http/responses.ts';
import { IdParams } from '../../platform/http/schema-types.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import { Type } from 'typebox';
import {
  CreateRefundReasonBody,
  RefundReasonEnvelope,
  RefundReasonList,
  RefundReasonQuery,
  UpdateRefundReasonBody,
} from './schema.ts';
import {
  createRefundReason,
  deleteRefundReason,
  getRefundReason,
  listRefundReasons,
  updateRefundReason,
} from './service.ts';

const tags = ['refund-reasons'];
const FieldsQuery = Type.Object({ fields: Type.Optional(Type.String({ maxLength: 2000 })) });

/** Medusa's `/admin/refund-reasons` CRUD; reading and writing them is the order desk's permission. */
export const adminRefundReasonRoutes: RouteModule = adminResource('orders', (app) => {
  app.get(
    '/refund-reasons',
    {
      schema: { tags, summary: 'List refund reasons', querystring: RefundReasonQuery, response: ok(RefundReasonList) },
    },
    async (req) => {
      const page = pageOf(req.query, 50);
      return { ...(await listRefundReasons(req.ctx, req.query, page)), ...page };
    },
  );

  app.get(
    '/refund-reasons/:id',
    {
      schema: {
        tags,
        summary: 'Get a refund reason',
        params: IdParams,
        querystring: FieldsQuery,
        response: ok(RefundReasonEnvelope),
      },
    },
    async (req) => ({ refund_reason: await getRefundReason(req.ctx, req.params.id) }),
  );

  app.post(
    '/refund-reasons',
    {
      schema: {
        tags,
        summary: 'Create a refund reason (its code unique among live ones)',
        querystring: FieldsQuery,
        body: CreateRefundReasonBody,
        response: ok(RefundReasonEnvelope),
      },
    },
    async (req) => ({ refund_reason: await createRefundReason(req.ctx, req.body) }),
  );

  app.post(
    '/refund-reasons/:id',
    {
      schema: {
        tags,
        summary: 'Update a refund reason',
        params: IdParams,
        querystring: FieldsQuery,
        body: UpdateRefundReasonBody,
        response: ok(RefundReasonEnvelope),
      },
    },
    async (req) => ({ refund_reason: await updateRefundReason(req.ctx, req.params.id, req.body) }),
  );

  deleteByIdRoute(app, '/refund-reasons/:id', {
    tags,
    summary: 'Delete a refund reason (soft; refunds keep its id)',
    object: 'refund_reason',
    remove: (req) => deleteRefundReason(req.ctx, req.params.id),
  });
});
