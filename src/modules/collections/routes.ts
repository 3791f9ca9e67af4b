import { sendKeptListing } from '../products/listing-answers.ts';
import { Type } from 'typebox';
import { deletedEnvelope, pageOf } from '../../platform/http/pagination.ts';
import { ok } from '../../platform/http/responses.ts';
import { IdParams } from '../../platform/http/schema-types.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import { BatchLinkBody } from '../sales-channels/schema.ts';
import {
  CollectionEnvelope,
  CollectionGetQuery,
  CollectionList,
  CollectionQuery,
  CreateCollectionBody,
  UpdateCollectionBody,
} from './schema.ts';
import {
  batchProducts,
  createCollection,
  deleteCollection,
  getCollection,
  listCollections,
  updateCollection,
} from './service.ts';
import { adminResource } from '../../platform/http/permissions.ts';

const tags = ['collections'];

export const adminCollectionRoutes: RouteModule = adminResource('products', (app) => {
  app.get(
    '/collections',
    {
      schema: { tags, summary: 'List product collections', querystring: CollectionQuery, response: ok(CollectionList) },
    },
    async (req) => listCollections(req.ctx, req.query, pageOf(req.query, 10)),
  );

  app.get(
    '/collections/:id',
    {
      schema: {
        tags,
        summary: 'Get a product collection',
        params: IdParams,
        querystring: CollectionGetQuery,
        response: ok(CollectionEnvelope),
      },
    },
    async (req) => ({ collection: await getCollection(req.ctx, req.params.id, req.query.fields) }),
  );

  app.post(
    '/collections',
    {
      schema: {
        tags,
        summary: 'Create a product collection',
        body: CreateCollectionBody,
        response: ok(CollectionEnvelope),
      },
    },
    async (req) => ({ collection: await createCollection(req.ctx, req.body) }),
  );

  app.post(
    '/collections/:id',
    {
      schema: {
        tags,
        summary: 'Update a product collection',
        params: IdParams,
        body: UpdateCollectionBody,
        response: ok(CollectionEnvelope),
      },
    },
    async (req) => ({ collection: await updateCollection(req.ctx, req.params.id, req.body) }),
  );

  app.delete(
    '/collections/:id',
    {
      schema: {
        tags,
        summary: 'Delete a product collection (soft); its products leave it',
        params: IdParams,
        response: ok(deletedEnvelope('collection')),
      },
    },
    async (req) => deleteCollection(req.ctx, req.params.id),
  );

  app.post(
    '/collections/:id/products',
    {
      schema: {
        tags,
        summary: 'Move products into and out of a collection',
        params: IdParams,
        body: BatchLinkBody,
        response: ok(CollectionEnvelope),
      },
    },
    async (req) => ({ collection: await batchProducts(req.ctx, req.params.id, req.body) }),
  );
});

const storeTags = ['store collections'];

export const storeCollectionRoutes: RouteModule = (app) => {
  app.get(
    '/collections',
    {
      schema: {
        tags: storeTags,
        summary: 'List product collections',
        querystring: CollectionQuery,
        response: ok(CollectionList),
      },
    },
    async (req, reply) =>
      sendKeptListing(req, reply, () => listCollections(req.ctx, req.query, pageOf(req.query, 10), req.store!)),
  );

  app.get(
    '/collections/:id',
    {
      schema: {
        tags: storeTags,
        summary: 'Get a product collection',
        params: IdParams,
        querystring: Type.Object(CollectionGetQuery.properties),
        response: ok(CollectionEnvelope),
      },
    },
    async (req, reply) =>
      sendKeptListing(req, reply, async () => ({
        collection: await getCollection(req.ctx, req.params.id, req.query.fields, req.store!),
      })),
  );
};
