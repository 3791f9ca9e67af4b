import { deleteByIdRoute } from '../../platform/http/delete-route.ts';
import { IdParams } from '../../platform/http/schema-types.ts';
import { ok } from '../../platform/http/responses.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import { Type } from 'typebox';
import { BatchLinkBody } from '../sales-channels/schema.ts';
import { sendJsonText } from './json-reply.ts';
import { batchImageVariantLinks, batchVariantImageLinks } from './link-service.ts';
import { batchProducts } from './batch-service.ts';
import {
  AdminListQuery,
  AdminProductList,
  BatchProductsBody,
  BatchProductsResponse,
  CreateProductBody,
  ProductResponse,
  UpdateProductBody,
} from './schema.ts';
import { createProduct, deleteProduct, getAdminProduct, listAdminProducts, updateProduct } from './service.ts';
import { adminResource } from '../../platform/http/permissions.ts';

const tags = ['products'];
const LinkBatchAnswer = Type.Object({ added: Type.Array(Type.String()), removed: Type.Array(Type.String()) });

// Reads answer JSON text built by PostgreSQL (see product-json.ts); the schemas describe it.
export const adminProductRoutes: RouteModule = adminResource('products', (app) => {
  app.get(
    '/products',
    { schema: { tags, summary: 'List products', querystring: AdminListQuery, response: ok(AdminProductList) } },
    async (req, reply) => sendJsonText(reply, await listAdminProducts(req.ctx, req.query)),
  );

  app.get(
    '/products/:id',
    { schema: { tags, summary: 'Get a product', params: IdParams, response: ok(ProductResponse) } },
    async (req, reply) => sendJsonText(reply, await getAdminProduct(req.ctx, req.params.id)),
  );

  app.post(
    '/products',
    { schema: { tags, summary: 'Create a product', body: CreateProductBody, response: ok(ProductResponse) } },
    async (req) => ({ product: await createProduct(req.ctx, req.body) }),
  );

  app.post(
    '/products/batch',
    {
      schema: {
        tags,
        summary: 'Create, update and delete products in one transaction (all or nothing; 1,000 items at most)',
        body: BatchProductsBody,
        response: ok(BatchProductsResponse),
      },
      // 1,000 items of up to 16 KB on average (long descriptions, many variants); other routes keep the app's 1 MB.
      bodyLimit: 16 * 1024 * 1024,
    },
    async (req) => batchProducts(req.ctx, req.body),
  );

  const update = {
    tags,
    summary: 'Update a product',
    params: IdParams,
    body: UpdateProductBody,
    response: ok(ProductResponse),
  };
  for (const method of ['POST', 'PATCH'] as const) {
    app.route({
      method,
      url: '/products/:id',
      schema: update,
      handler: async (req) => ({ product: await updateProduct(req.ctx, req.params.id, req.body) }),
    });
  }

  // Variants and images link both ways: either side's batch answers the ids it added and removed.
  const linkBatch = { tags, body: BatchLinkBody, response: ok(LinkBatchAnswer) };
  app.post(
    '/products/:id/variants/:variant_id/images/batch',
    {
      schema: {
        ...linkBatch,
        summary: 'Choose which of the product’s images a variant shows (image ids to add and remove)',
        params: Type.Object({ id: IdParams.properties.id, variant_id: IdParams.properties.id }),
      },
    },
    async (req) => batchVariantImageLinks(req.ctx, req.params.id, req.params.variant_id, req.body),
  );
  app.post(
    '/products/:id/images/:image_id/variants/batch',
    {
      schema: {
        ...linkBatch,
        summary: 'Choose which of the product’s variants show an image (variant ids to add and remove)',
        params: Type.Object({ id: IdParams.properties.id, image_id: IdParams.properties.id }),
      },
    },
    async (req) => batchImageVariantLinks(req.ctx, req.params.id, req.params.image_id, req.body),
  );

  deleteByIdRoute(app, '/products/:id', {
    tags,
    summary: 'Delete a product (soft)',
    object: 'product',
    remove: (req) => deleteProduct(req.ctx, req.params.id),
  });
});
