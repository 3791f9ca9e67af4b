import { emptyBodyIsObject } from '../../platform/http/body.ts';
import { ok } from '../../platform/http/responses.ts';
import { IdParams } from '../../platform/http/schema-types.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import { cancelEditRoute, type EditRoutes, lineChangeRoutes, requestEditRoute } from './edit-routes.ts';
import { currencyOfRow, paramId } from '../../platform/money/currency-lookup.ts';
import { EmptyBody } from '../orders/desk-schema.ts';
import { ActionParams, AddItemsBody, CreateOrderEditBody, OrderChangeEnvelope, PreviewEnvelope } from './schema.ts';
import { addItems, confirmEdit, createEdit, updateAddedItem } from './service.ts';
import { adminResource } from '../../platform/http/permissions.ts';

const tags = ['order-edits'];
const preview = ok(PreviewEnvelope);
// Prices in edit bodies are in the order's currency; `{id}` is the order's id, as in Medusa.
const config = { moneyCurrency: currencyOfRow('orders', paramId) };
const edit: EditRoutes = {
  base: '/order-edits/:id',
  tags,
  scope: {},
  envelope: PreviewEnvelope,
  answer: async (_ctx, _id, step) => ({ order_preview: await step() }),
  object: 'order-edit',
};

export const adminOrderEditRoutes: RouteModule = adminResource('orders', (app) => {
  app.post(
    '/order-edits',
    {
      schema: { tags, summary: 'Start editing an order', body: CreateOrderEditBody, response: ok(OrderChangeEnvelope) },
    },
    async (req) => ({ order_change: await createEdit(req.ctx, req.body) }),
  );
  app.post(
    '/order-edits/:id/items',
    {
      schema: { tags, summary: 'Add items to the edit', params: IdParams, body: AddItemsBody, response: preview },
      config,
    },
    async (req) => ({ order_preview: await addItems(req.ctx, req.params.id, req.body) }),
  );
  lineChangeRoutes(app, edit);
  app.delete(
    '/order-edits/:id/items/:action_id',
    { schema: { tags, summary: 'Remove an action of the edit', params: ActionParams, response: preview } },
    async (req) => ({ order_preview: await updateAddedItem(req.ctx, req.params.id, req.params.action_id, null) }),
  );
  requestEditRoute(app, edit);
  app.post(
    '/order-edits/:id/confirm',
    {
      schema: {
        tags,
        summary: 'Confirm the edit into a new order version (event order.edit_confirmed)',
        params: IdParams,
        body: EmptyBody,
        response: preview,
      },
      preValidation: emptyBodyIsObject,
    },
    async (req) => ({ order_preview: await confirmEdit(req.ctx, req.params.id) }),
  );
  cancelEditRoute(app, edit);
});
