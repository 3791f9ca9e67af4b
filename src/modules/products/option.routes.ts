import { Type } from 'typebox';
import { pageOf } from '../../platform/http/pagination.ts';
import { adminResource } from '../../platform/http/permissions.ts';
import { ok } from '../../platform/http/responses.ts';
import { IdParams } from '../../platform/http/schema-types.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import { sendJsonText } from './json-reply.ts';
import {
  FieldsOnly,
  LinkOptionsBody,
  OptionCreateBody,
  OptionListQuery,
  OptionUpdateBody,
  OptionValueListQuery,
  OptionValueUpdateBody,
} from './option-schema.ts';
import {
  createOption,
  deleteOption,
  deleteOptionValue,
  getOption,
  getOptionValue,
  linkOptions,
  listAllOptions,
  listOptionValues,
  listProductOptions,
  updateOption,
  updateOptionValue,
} from './option-service.ts';
import {
  OptionDeleted,
  OptionList,
  OptionResponse,
  OptionValueDeleted,
  OptionValueList,
  OptionValueResponse,
  ProductResponse,
} from './schema.ts';

const tags = ['product options'];
const ValueParams = Type.Object({ id: IdParams.properties.id, value_id: IdParams.properties.id });

/**
 * Medusa 2.21's option routes over the products' own options (option-service.ts): each option
 * belongs to one product, so `POST /product-options` needs a `product_id`.
 */
export const adminOptionRoutes: RouteModule = adminResource('products', (app) => {
  app.get(
    '/product-options',
    {
      schema: {
        tags,
        summary: 'List product options (of every live product)',
        querystring: OptionListQuery,
        response: ok(OptionList),
      },
    },
    async (req, reply) => sendJsonText(reply, await listAllOptions(req.ctx, req.query, req.query)),
  );

  app.get(
    '/product-options/:id',
    {
      schema: {
        tags,
        summary: 'Get a product option',
        params: IdParams,
        querystring: FieldsOnly,
        response: ok(OptionResponse),
      },
    },
    async (req) => ({ product_option: await getOption(req.ctx, req.params.id) }),
  );

  app.post(
    '/product-options',
    {
      schema: {
        tags,
        summary: 'Create an option of the product named by product_id',
        querystring: FieldsOnly,
        body: OptionCreateBody,
        response: ok(OptionResponse),
      },
    },
    async (req) => ({ product_option: await createOption(req.ctx, req.body) }),
  );

  app.post(
    '/product-options/:id',
    {
      schema: {
        tags,
        summary: 'Update an option (renames follow into its variants; a value in use cannot be dropped)',
        params: IdParams,
        querystring: FieldsOnly,
        body: OptionUpdateBody,
        response: ok(OptionResponse),
      },
    },
    async (req) => ({ product_option: await updateOption(req.ctx, req.params.id, req.body) }),
  );

  app.delete(
    '/product-options/:id',
    {
      schema: {
        tags,
        summary: 'Delete an option (its product’s variants lose that choice)',
        params: IdParams,
        response: ok(OptionDeleted),
      },
    },
    async (req) => deleteOption(req.ctx, req.params.id),
  );

  app.get(
    '/product-options/:id/values',
    {
      schema: {
        tags,
        summary: 'List an option’s values',
        params: IdParams,
        querystring: OptionValueListQuery,
        response: ok(OptionValueList),
      },
    },
    async (req) => {
      const page = pageOf(req.query, 50);
      return { ...(await listOptionValues(req.ctx, req.params.id, req.query, page)), ...page };
    },
  );

  app.get(
    '/product-options/:id/values/:value_id',
    {
      schema: {
        tags,
        summary: 'Get an option value',
        params: ValueParams,
        querystring: FieldsOnly,
        response: ok(OptionValueResponse),
      },
    },
    async (req) => ({ product_option_value: await getOptionValue(req.ctx, req.params.id, req.params.value_id) }),
  );

  app.post(
    '/product-options/:id/values/:value_id',
    {
      schema: {
        tags,
        summary: 'Rename an option value (its id follows its text, so the answer carries the new id)',
        params: ValueParams,
        querystring: FieldsOnly,
        body: OptionValueUpdateBody,
        response: ok(OptionValueResponse),
      },
    },
    async (req) => ({
      product_option_value: await updateOptionValue(req.ctx, req.params.id, req.params.value_id, req.body),
    }),
  );

  app.delete(
    '/product-options/:id/values/:value_id',
    {
      schema: {
        tags,
        summary: 'Delete an option value no variant uses',
        params: ValueParams,
        response: ok(OptionValueDeleted),
      },
    },
    async (req) => deleteOptionValue(req.ctx, req.params.id, req.params.value_id),
  );

  app.get(
    '/products/:id/options',
    {
      schema: {
        tags,
        summary: 'List a product’s options',
        params: IdParams,
        querystring: OptionListQuery,
        response: ok(OptionList),
      },
    },
    async (req, reply) => sendJsonText(reply, await listProductOptions(req.ctx, req.params.id, req.query, req.query)),
  );

  app.post(
    '/products/:id/options/batch',
    {
      schema: {
        tags,
        summary: 'Add, copy, change and remove a product’s options (Medusa’s linkOptions); answers the product',
        params: IdParams,
        querystring: FieldsOnly,
        body: LinkOptionsBody,
        response: ok(ProductResponse),
      },
    },
    async (req) => ({ product: await linkOptions(req.ctx, req.params.id, req.body) }),
  );
});
