import { deleteByIdRoute } from '../../platform/http/delete-route.ts';
import { sendKeptListing } from '../products/listing-answers.ts';
import { pageOf } from '../../platform/http/pagination.ts';
import { ok } from '../../platform/http/responses.ts';
import { IdParams } from '../../platform/http/schema-types.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import { BatchLinkBody } from '../sales-channels/schema.ts';
import {
  AdminCategoryEnvelope,
  AdminCategoryList,
  AdminCategoryQuery,
  CategoryGetQuery,
  CreateCategoryBody,
  StoreCategoryEnvelope,
  StoreCategoryList,
  StoreCategoryQuery,
  UpdateCategoryBody,
} from './schema.ts';
import {
  batchProducts,
  createCategory,
  deleteCategory,
  getCategory,
  listCategories,
  updateCategory,
} from './service.ts';
import { adminResource } from '../../platform/http/permissions.ts';

const tags = ['product categories'];
const url = '/product-categories';

export const adminCategoryRoutes: RouteModule = adminResource('products', (app) => {
  app.get(
    url,
    {
      schema: {
        tags,
        summary: 'List product categories',
        querystring: AdminCategoryQuery,
        response: ok(AdminCategoryList),
      },
    },
    async (req) => listCategories(req.ctx, req.query, pageOf(req.query, 50)),
  );

  app.get(
    `${url}/:id`,
    {
      schema: {
        tags,
        summary: 'Get a product category',
        params: IdParams,
        querystring: CategoryGetQuery,
        response: ok(AdminCategoryEnvelope),
      },
    },
    async (req) => ({ product_category: await getCategory(req.ctx, req.params.id, req.query) }),
  );

  app.post(
    url,
    {
      schema: {
        tags,
        summary: 'Create a product category',
        body: CreateCategoryBody,
        response: ok(AdminCategoryEnvelope),
      },
    },
    async (req) => ({ product_category: await createCategory(req.ctx, req.body) }),
  );

  app.post(
    `${url}/:id`,
    {
      schema: {
        tags,
        summary: 'Update a product category (name, handle, parent, rank, visibility)',
        params: IdParams,
        body: UpdateCategoryBody,
        response: ok(AdminCategoryEnvelope),
      },
    },
    async (req) => ({ product_category: await updateCategory(req.ctx, req.params.id, req.body) }),
  );

  deleteByIdRoute(app, `${url}/:id`, {
    tags,
    summary: 'Delete a product category without children (soft)',
    object: 'product_category',
    remove: (req) => deleteCategory(req.ctx, req.params.id),
  });

  app.post(
    `${url}/:id/products`,
    {
      schema: {
        tags,
        summary: 'Add products to and remove them from a category',
        params: IdParams,
        body: BatchLinkBody,
        response: ok(AdminCategoryEnvelope),
      },
    },
    async (req) => ({ product_category: await batchProducts(req.ctx, req.params.id, req.body) }),
  );
});

const storeTags = ['store product categories'];

/** Only active, public categories; `fields=*products` adds the products the key's channels sell. */
export const storeCategoryRoutes: RouteModule = (app) => {
  app.get(
    url,
    {
      schema: {
        tags: storeTags,
        summary: 'List product categories',
        querystring: StoreCategoryQuery,
        response: ok(StoreCategoryList),
      },
    },
    async (req, reply) =>
      sendKeptListing(req, reply, () => listCategories(req.ctx, req.query, pageOf(req.query, 50), req.store!)),
  );

  app.get(
    `${url}/:id`,
    {
      schema: {
        tags: storeTags,
        summary: 'Get a product category',
        params: IdParams,
        querystring: CategoryGetQuery,
        response: ok(StoreCategoryEnvelope),
      },
    },
    async (req, reply) =>
      sendKeptListing(req, reply, async () => ({
        product_category: await getCategory(req.ctx, req.params.id, req.query, req.store!),
      })),
  );
};
