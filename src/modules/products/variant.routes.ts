import { Type } from 'typebox';
import { adminResource } from '../../platform/http/permissions.ts';
import { ok } from '../../platform/http/responses.ts';
import { IdParams } from '../../platform/http/schema-types.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import { sendJsonText } from './json-reply.ts';
import {
  AllVariantsQuery,
  BatchVariantsBody,
  BatchVariantsResponse,
  CreateVariantBody,
  FieldsQuery,
  ProductResponse,
  UpdateVariantBody,
  VariantDeleted,
  VariantList,
  VariantListQuery,
  VariantResponse,
  VariantWithProductList,
} from './schema.ts';
import {
  batchVariants,
  createVariant,
  deleteVariant,
  getProductVariant,
  listAllVariants,
  listProductVariants,
  updateVariant,
} from './variant-service.ts';

const tags = ['products'];
const VariantParams = Type.Object({ id: IdParams.properties.id, variant_id: IdParams.properties.id });

/**
 * Medusa's variant routes. Writes answer the whole product (`{ product }`), as Medusa's do; the
 * batch answers the variants. `fields` is accepted everywhere and the answer is always whole.
 * Reads answer JSON text built by PostgreSQL (variant-queries.ts).
 */
export const adminVariantRoutes: RouteModule = adminResource('products', (app) => {
  app.get(
    '/product-variants',
    {
      schema: {
        tags,
        summary: 'List the variants of every product (each with its product)',
        querystring: AllVariantsQuery,
        response: ok(VariantWithProductList),
      },
    },
    async (req, reply) => sendJsonText(reply, await listAllVariants(req.ctx, req.query)),
  );

  app.get(
    '/products/:id/variants',
    {
      schema: {
        tags,
        summary: 'List a product’s variants',
        params: IdParams,
        querystring: VariantListQuery,
        response: ok(VariantList),
      },
    },
    async (req, reply) => sendJsonText(reply, await listProductVariants(req.ctx, req.params.id, req.query)),
  );

  app.get(
    '/products/:id/variants/:variant_id',
    {
      schema: {
        tags,
        summary: 'Get a variant',
        params: VariantParams,
        querystring: FieldsQuery,
        response: ok(VariantResponse),
      },
    },
    async (req, reply) => sendJsonText(reply, await getProductVariant(req.ctx, req.params.id, req.params.variant_id)),
  );

  app.post(
    '/products/:id/variants',
    {
      schema: {
        tags,
        summary: 'Add a variant (stock-managed: with an inventory item at the default location); answers the product',
        params: IdParams,
        querystring: FieldsQuery,
        body: CreateVariantBody,
        response: ok(ProductResponse),
      },
    },
    async (req) => ({ product: await createVariant(req.ctx, req.params.id, req.body) }),
  );

  app.post(
    '/products/:id/variants/batch',
    {
      schema: {
        tags,
        summary: 'Create, update and delete a product’s variants in one transaction (all or nothing)',
        params: IdParams,
        querystring: FieldsQuery,
        body: BatchVariantsBody,
        response: ok(BatchVariantsResponse),
      },
      bodyLimit: 16 * 1024 * 1024,
    },
    async (req) => batchVariants(req.ctx, req.params.id, req.body),
  );

  app.post(
    '/products/:id/variants/:variant_id',
    {
      schema: {
        tags,
        summary: 'Update a variant (only the fields given); answers the product',
        params: VariantParams,
        querystring: FieldsQuery,
        body: UpdateVariantBody,
        response: ok(ProductResponse),
      },
    },
    async (req) => ({ product: await updateVariant(req.ctx, req.params.id, req.params.variant_id, req.body) }),
  );

  app.delete(
    '/products/:id/variants/:variant_id',
    {
      schema: {
        tags,
        summary: 'Delete a variant (soft; its SKU becomes free)',
        params: VariantParams,
        querystring: FieldsQuery,
        response: ok(VariantDeleted),
      },
    },
    async (req) => deleteVariant(req.ctx, req.params.id, req.params.variant_id),
  );
});
