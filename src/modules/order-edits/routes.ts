import { emptyBodyIsObject } from '../../platform/http/body.ts';
import { deletedEnvelope } from '../../platform/http/pagination.ts';
import { ok } from '../../platform/http/responses.ts';
import { IdParams } from '../../platform/http/schema-types.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import { currencyOfRow, paramId } from '../../platform/money/currency-lookup.ts';
import { EmptyBody } from '../orders/desk-schema.ts';
import {
  ActionParams,
  AddItemsBody,
  CreateOrderEditBody,
  ItemParams,
  OrderChangeEnvelope,
  PreviewEnvelope,
  UpdateItemBody,
} from './schema.ts';
import {
  addItems,
  cancelEdit,
  confirmEdit,
  createEdit,
  requestEdit,
  updateAddedItem,
  updateOriginalItem,
} from './service.ts';
import { adminResource } from '../../platform/http/permissions.ts';

const tags = ['order-edits'];
const preview = ok(PreviewEnvelope);
// Prices in edit bodies are in the order's currency; `{id}` is the order's id, as in Medusa.
const config = { moneyCurrency: currencyOfRow('orders', paramId) };

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
  app.post(
    '/order-edits/:id/items/item/:item_id',
    {
      schema: {
        tags,
        summary: "Change a line's quantity or price (0 removes it)",
        params: ItemParams,
        body: UpdateItemBody,
        response: preview,
      },
      config,
    },
    async (req) => ({ order_preview: await updateOriginalItem(req.ctx, req.params.id, req.params.item_id, req.body) }),
  );
  app.post(
    '/order-edits/:id/items/:action_id',
    {
      schema: {
        tags,
        summary: 'Change an item this edit adds',
        params: ActionParams,
        body: UpdateItemBody,
        response: preview,
      },
      config,
    },
    async (req) => ({ order_preview: await updateAddedItem(req.ctx, req.params.id, req.params.action_id, req.body) }),
  );
  app.delete(
    '/order-edits/:id/items/:action_id',
    { schema: { tags, summary: 'Remove an action of the edit', params: ActionParams, response: preview } },
    async (req) => ({ order_preview: await updateAddedItem(req.ctx, req.params.id, req.params.action_id, null) }),
  );
  app.post(
    '/order-edits/:id/request',
    {
      schema: {
        tags,
        summary: 'Request the edit (ready to confirm)',
        params: IdParams,
        body: EmptyBody,
        response: preview,
      },
      preValidation: emptyBodyIsObject,
    },
    async (req) => ({ order_preview: await requestEdit(req.ctx, req.params.id) }),
  );
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
  app.delete(
    '/order-edits/:id',
    { schema: { tags, summary: 'Cancel the edit', params: IdParams, response: ok(deletedEnvelope('order-edit')) } },
    async (req) => {
      await cancelEdit(req.ctx, req.params.id);
      return { id: req.params.id, object: 'order-edit', deleted: true as const };
    },
  );
});
