import { emptyBodyIsObject } from '../../platform/http/body.ts';
import { deletedEnvelope, pageOf } from '../../platform/http/pagination.ts';
import { adminResource } from '../../platform/http/permissions.ts';
import { ok } from '../../platform/http/responses.ts';
import { IdParams } from '../../platform/http/schema-types.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import { cancelEditRoute, type EditRoutes, lineChangeRoutes, requestEditRoute } from '../order-edits/edit-routes.ts';
import { currencyOfRow, paramId } from '../../platform/money/currency-lookup.ts';
import { EmptyBody } from '../orders/desk-schema.ts';
import { ActionParams } from '../order-edits/schema.ts';
import {
  addDraftItems,
  addDraftShippingMethod,
  beginDraftEdit,
  confirmDraftEdit,
  removeDraftAction,
  removeDraftShippingMethod,
  updateDraftShippingAction,
  updateDraftShippingMethod,
  withDraftPreview,
} from './edit.ts';
import { addDraftPromotions, removeDraftPromotions } from './promotions.ts';
import {
  AddDraftItemsBody,
  AddShippingMethodBody,
  ConvertDraftOrderBody,
  ConvertDraftOrderQuery,
  ConvertedEnvelope,
  CreateDraftOrderBody,
  DraftOrderEnvelope,
  DraftOrderList,
  DraftOrderQuery,
  DraftPreviewEnvelope,
  MethodParams,
  PromoCodesBody,
  UpdateDraftOrderBody,
  UpdateShippingMethodBody,
} from './schema.ts';
import { DRAFT } from './draft-lock.ts';
import { convertDraft, createDraft, deleteDraft, getDraft, listDrafts, updateDraft } from './service.ts';

const tags = ['draft-orders'];
const preview = ok(DraftPreviewEnvelope);
// Prices in edit bodies are in the draft's currency; `{id}` is the draft's id.
const config = { moneyCurrency: currencyOfRow('orders', paramId) };
const empty = { body: EmptyBody };
const edit: EditRoutes = {
  base: '/draft-orders/:id/edit',
  tags,
  scope: DRAFT,
  envelope: DraftPreviewEnvelope,
  answer: async (ctx, id, step) => ({ draft_order_preview: await withDraftPreview(ctx, id, step) }),
  object: 'draft-order',
};

export const adminDraftOrderRoutes: RouteModule = adminResource('orders', (app) => {
  app.get(
    '/draft-orders',
    { schema: { tags, summary: 'List draft orders', querystring: DraftOrderQuery, response: ok(DraftOrderList) } },
    async (req) => {
      const page = pageOf(req.query, 15);
      return { ...(await listDrafts(req.ctx, req.query, page)), offset: page.offset, limit: page.limit };
    },
  );
  app.post(
    '/draft-orders',
    {
      schema: {
        tags,
        summary: 'Create a draft order for a customer or an email',
        body: CreateDraftOrderBody,
        response: ok(DraftOrderEnvelope),
      },
    },
    async (req) => ({ draft_order: await createDraft(req.ctx, req.body) }),
  );
  app.get(
    '/draft-orders/:id',
    { schema: { tags, summary: 'A draft order', params: IdParams, response: ok(DraftOrderEnvelope) } },
    async (req) => ({ draft_order: await getDraft(req.ctx, req.params.id) }),
  );
  app.post(
    '/draft-orders/:id',
    {
      schema: {
        tags,
        summary: "Update a draft order's customer, email, channel, addresses or metadata",
        params: IdParams,
        body: UpdateDraftOrderBody,
        response: ok(DraftOrderEnvelope),
      },
    },
    async (req) => ({ draft_order: await updateDraft(req.ctx, req.params.id, req.body) }),
  );
  app.delete(
    '/draft-orders/:id',
    {
      schema: { tags, summary: 'Delete a draft order', params: IdParams, response: ok(deletedEnvelope('draft-order')) },
    },
    async (req) => {
      await deleteDraft(req.ctx, req.params.id);
      return { id: req.params.id, object: 'draft-order', deleted: true as const };
    },
  );
  app.post(
    '/draft-orders/:id/convert-to-order',
    {
      schema: {
        tags,
        summary: 'Convert the draft into an order (its stock reserved; paid when mark_as_paid, else awaiting payment)',
        params: IdParams,
        querystring: ConvertDraftOrderQuery,
        body: ConvertDraftOrderBody,
        response: ok(ConvertedEnvelope),
      },
      preValidation: emptyBodyIsObject,
    },
    async (req) => ({
      order: await convertDraft(req.ctx, req.params.id, {
        markAsPaid: req.body.mark_as_paid ?? req.query.mark_as_paid ?? false,
      }),
    }),
  );

  // Editing (Medusa's /edit routes): every answer is the draft with the edit applied, as a preview.
  app.post(
    '/draft-orders/:id/edit',
    {
      schema: { tags, summary: 'Begin editing the draft', params: IdParams, ...empty, response: preview },
      preValidation: emptyBodyIsObject,
    },
    async (req) => ({ draft_order_preview: await beginDraftEdit(req.ctx, req.params.id) }),
  );
  cancelEditRoute(app, edit);
  requestEditRoute(app, edit);
  app.post(
    '/draft-orders/:id/edit/confirm',
    {
      schema: { tags, summary: 'Confirm the edit into the draft', params: IdParams, ...empty, response: preview },
      preValidation: emptyBodyIsObject,
    },
    async (req) => ({ draft_order_preview: await confirmDraftEdit(req.ctx, req.params.id) }),
  );
  app.post(
    '/draft-orders/:id/edit/items',
    {
      schema: {
        tags,
        summary: 'Add items (by variant, or custom: title and unit_price)',
        params: IdParams,
        body: AddDraftItemsBody,
        response: preview,
      },
      config,
    },
    async (req) => ({ draft_order_preview: await addDraftItems(req.ctx, req.params.id, req.body.items) }),
  );
  lineChangeRoutes(app, edit);
  app.delete(
    '/draft-orders/:id/edit/items/:action_id',
    { schema: { tags, summary: 'Remove an item this edit adds', params: ActionParams, response: preview } },
    async (req) => ({ draft_order_preview: await removeDraftAction(req.ctx, req.params.id, req.params.action_id) }),
  );
  app.post(
    '/draft-orders/:id/edit/promotions',
    {
      schema: {
        tags,
        summary: 'Apply promotion codes (each must discount the draft as the edit leaves it)',
        params: IdParams,
        body: PromoCodesBody,
        response: preview,
      },
    },
    async (req) => ({
      draft_order_preview: await addDraftPromotions(req.ctx, req.params.id, req.body.promo_codes),
    }),
  );
  app.delete(
    '/draft-orders/:id/edit/promotions',
    {
      schema: { tags, summary: 'Remove promotion codes', params: IdParams, body: PromoCodesBody, response: preview },
    },
    async (req) => ({
      draft_order_preview: await removeDraftPromotions(req.ctx, req.params.id, req.body.promo_codes),
    }),
  );
  app.post(
    '/draft-orders/:id/edit/shipping-methods',
    {
      schema: {
        tags,
        summary: 'Add a shipping method (the option price, or custom_amount)',
        params: IdParams,
        body: AddShippingMethodBody,
        response: preview,
      },
      config,
    },
    async (req) => ({ draft_order_preview: await addDraftShippingMethod(req.ctx, req.params.id, req.body) }),
  );
  app.post(
    '/draft-orders/:id/edit/shipping-methods/method/:method_id',
    {
      schema: {
        tags,
        summary: 'Replace a shipping method of the draft (another option or amount)',
        params: MethodParams,
        body: UpdateShippingMethodBody,
        response: preview,
      },
      config,
    },
    async (req) => ({
      draft_order_preview: await updateDraftShippingMethod(req.ctx, req.params.id, req.params.method_id, req.body),
    }),
  );
  app.delete(
    '/draft-orders/:id/edit/shipping-methods/method/:method_id',
    {
      schema: { tags, summary: 'Remove a shipping method of the draft', params: MethodParams, response: preview },
    },
    async (req) => ({
      draft_order_preview: await removeDraftShippingMethod(req.ctx, req.params.id, req.params.method_id),
    }),
  );
  app.post(
    '/draft-orders/:id/edit/shipping-methods/:action_id',
    {
      schema: {
        tags,
        summary: 'Change a shipping method this edit adds',
        params: ActionParams,
        body: UpdateShippingMethodBody,
        response: preview,
      },
      config,
    },
    async (req) => ({
      draft_order_preview: await updateDraftShippingAction(req.ctx, req.params.id, req.params.action_id, req.body),
    }),
  );
  app.delete(
    '/draft-orders/:id/edit/shipping-methods/:action_id',
    {
      schema: { tags, summary: 'Remove a shipping method this edit adds', params: ActionParams, response: preview },
    },
    async (req) => ({ draft_order_preview: await removeDraftAction(req.ctx, req.params.id, req.params.action_id) }),
  );
});
