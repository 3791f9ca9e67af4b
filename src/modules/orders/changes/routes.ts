import { Type } from 'typebox';
import { executor } from '../../../platform/context.ts';
import { emptyBodyIsObject } from '../../../platform/http/body.ts';
import { ok } from '../../../platform/http/responses.ts';
import { IdParams } from '../../../platform/http/schema-types.ts';
import type { RouteModule } from '../../../platform/http/types.ts';
import * as dq from '../desk-queries.ts';
import { orderNotFound } from '../desk.ts';
import { AdminOrderEnvelope, EmptyBody } from '../desk-schema.ts';
import { archiveOrder, completeOrder } from './lifecycle.ts';
import { OrderChangeList, OrderPreviewEnvelope } from './schema-preview.ts';
import { listChanges, orderPreview } from './views.ts';
import { CreateCreditLineBody, OrderChangeEnvelope, UpdateOrderChangeBody } from './schema.ts';
import { createCreditLine } from './credit-lines.ts';
import { currencyOfRow, paramId } from '../../../platform/money/currency-lookup.ts';
import { updateOrderChange } from './update.ts';
import { adminResource } from '../../../platform/http/permissions.ts';

const tags = ['orders'];
const ReadQuery = Type.Object({ fields: Type.Optional(Type.String({ maxLength: 2000 })) });

/** Order changes, the preview of the open one, and the end of an order's life. */
export const adminOrderChangeRoutes: RouteModule = adminResource('orders', (app) => {
  app.get(
    '/orders/:id/changes',
    {
      schema: {
        tags,
        summary: "The order's changes (returns, edits) with their actions, oldest first",
        params: IdParams,
        querystring: ReadQuery,
        response: ok(OrderChangeList),
      },
    },
    async (req) => {
      const db = executor(req.ctx);
      const order = await dq.findOrderRow(db, req.params.id);
      if (!order) throw orderNotFound(req.params.id);
      return { order_changes: await listChanges(db, order) };
    },
  );

  app.get(
    '/orders/:id/preview',
    {
      schema: {
        tags,
        summary: 'The order as it will be once its active change is confirmed',
        params: IdParams,
        querystring: ReadQuery,
        response: ok(OrderPreviewEnvelope),
      },
    },
    async (req) => {
      const db = executor(req.ctx);
      const order = await dq.findOrderRow(db, req.params.id);
      if (!order) throw orderNotFound(req.params.id);
      return { order: await orderPreview(db, order) };
    },
  );

  app.post(
    '/order-changes/:id',
    {
      schema: {
        tags,
        summary: 'Update an active order change: its internal note (carry_over_promotions: false only)',
        params: IdParams,
        querystring: ReadQuery,
        body: UpdateOrderChangeBody,
        response: ok(OrderChangeEnvelope),
      },
      preValidation: emptyBodyIsObject,
    },
    async (req) => ({ order_change: await updateOrderChange(req.ctx, req.params.id, req.body) }),
  );

  app.post(
    '/orders/:id/credit-lines',
    {
      schema: {
        tags,
        summary: 'Add a credit line that settles (part of) the pending difference, as a new order version',
        params: IdParams,
        querystring: ReadQuery,
        body: CreateCreditLineBody,
        response: ok(AdminOrderEnvelope),
      },
      config: { moneyCurrency: currencyOfRow('orders', paramId) },
    },
    async (req) => ({ order: await createCreditLine(req.ctx, req.params.id, req.body) }),
  );

  for (const [path, run, summary] of [
    ['complete', completeOrder, 'Complete an order whose items are fulfilled and whose money is settled'],
    ['archive', archiveOrder, 'Archive a completed or canceled order'],
  ] as const)
    app.post(
      `/orders/:id/${path}`,
      {
        schema: { tags, summary, params: IdParams, body: EmptyBody, response: ok(AdminOrderEnvelope) },
        preValidation: emptyBodyIsObject,
      },
      async (req) => ({ order: await run(req.ctx, req.params.id) }),
    );
});
