import { deletedEnvelope, pageOf } from '../../platform/http/pagination.ts';
import { adminResource } from '../../platform/http/permissions.ts';
import { ok } from '../../platform/http/responses.ts';
import { IdParams } from '../../platform/http/schema-types.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import { splitList } from '../sales-channels/service.ts';
import { FieldsQuery } from '../stock-locations/schema.ts';
import {
  createOptionType,
  deleteOptionType,
  getOptionType,
  listOptionTypes,
  updateOptionType,
} from './option-types.ts';
import {
  CreateShippingOptionTypeBody,
  ShippingOptionTypeEnvelope,
  ShippingOptionTypeList,
  ShippingOptionTypeQuery,
  UpdateShippingOptionTypeBody,
} from './type-schema.ts';

const tags = ['shipping-option-types'];

/** `/admin/shipping-option-types`: Medusa's shared kinds of shipping option. */
export const adminShippingOptionTypeRoutes: RouteModule = adminResource('settings', (app) => {
  app.get(
    '/shipping-option-types',
    {
      schema: {
        tags,
        summary: 'List shipping option types',
        querystring: ShippingOptionTypeQuery,
        response: ok(ShippingOptionTypeList),
      },
    },
    async (req) => {
      const page = pageOf(req.query, 10);
      const { q, id, label, code } = req.query;
      const filters = { q, id: splitList(id), label: splitList(label), code: splitList(code) };
      return { ...(await listOptionTypes(req.ctx, filters, page)), ...page };
    },
  );
  app.post(
    '/shipping-option-types',
    {
      schema: {
        tags,
        summary: 'Create a shipping option type',
        querystring: FieldsQuery,
        body: CreateShippingOptionTypeBody,
        response: ok(ShippingOptionTypeEnvelope),
      },
    },
    async (req) => ({ shipping_option_type: await createOptionType(req.ctx, req.body) }),
  );
  app.get(
    '/shipping-option-types/:id',
    {
      schema: {
        tags,
        summary: 'Get a shipping option type',
        params: IdParams,
        querystring: FieldsQuery,
        response: ok(ShippingOptionTypeEnvelope),
      },
    },
    async (req) => ({ shipping_option_type: await getOptionType(req.ctx.db, req.params.id) }),
  );
  app.post(
    '/shipping-option-types/:id',
    {
      schema: {
        tags,
        summary: "Update a shipping option type (its options' copies follow)",
        params: IdParams,
        querystring: FieldsQuery,
        body: UpdateShippingOptionTypeBody,
        response: ok(ShippingOptionTypeEnvelope),
      },
    },
    async (req) => ({ shipping_option_type: await updateOptionType(req.ctx, req.params.id, req.body) }),
  );
  app.delete(
    '/shipping-option-types/:id',
    {
      schema: {
        tags,
        summary: 'Delete a shipping option type (soft; not while options use it)',
        params: IdParams,
        response: ok(deletedEnvelope('shipping_option_type')),
      },
    },
    async (req) => deleteOptionType(req.ctx, req.params.id),
  );
});
