import { deletedEnvelope, pageOf } from '../../platform/http/pagination.ts';
import { ok } from '../../platform/http/responses.ts';
import { IdParams } from '../../platform/http/schema-types.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import { batchPrices, listPrices } from './prices.ts';
import {
  BatchPricesBody,
  BatchPricesResult,
  CreatePriceListBody,
  GetQuery,
  PriceListEnvelope,
  PriceListList,
  PriceListPrices,
  PriceListQuery,
  PricesQuery,
  RemoveProductsBody,
  UpdatePriceListBody,
} from './schema.ts';
import {
  createPriceList,
  deletePriceList,
  getPriceList,
  listPriceLists,
  removeProducts,
  updatePriceList,
} from './service.ts';
import { adminResource } from '../../platform/http/permissions.ts';

const tags = ['price lists'];

export const adminPriceListRoutes: RouteModule = adminResource('products', (app) => {
  app.get(
    '/price-lists',
    { schema: { tags, summary: 'List price lists', querystring: PriceListQuery, response: ok(PriceListList) } },
    async (req) => listPriceLists(req.ctx, req.query, pageOf(req.query, 50)),
  );

  app.get(
    '/price-lists/:id',
    {
      schema: {
        tags,
        summary: 'Get a price list with its prices',
        params: IdParams,
        querystring: GetQuery,
        response: ok(PriceListEnvelope),
      },
    },
    async (req) => ({ price_list: await getPriceList(req.ctx, req.params.id) }),
  );

  app.post(
    '/price-lists',
    {
      schema: {
        tags,
        summary: 'Create a price list (draft sale list unless told)',
        body: CreatePriceListBody,
        response: ok(PriceListEnvelope),
      },
    },
    async (req) => ({ price_list: await createPriceList(req.ctx, req.body) }),
  );

  app.post(
    '/price-lists/:id',
    {
      schema: {
        tags,
        summary: 'Update a price list',
        params: IdParams,
        body: UpdatePriceListBody,
        response: ok(PriceListEnvelope),
      },
    },
    async (req) => ({ price_list: await updatePriceList(req.ctx, req.params.id, req.body) }),
  );

  app.delete(
    '/price-lists/:id',
    {
      schema: {
        tags,
        summary: 'Delete a price list and its prices',
        params: IdParams,
        response: ok(deletedEnvelope('price_list')),
      },
    },
    async (req) => deletePriceList(req.ctx, req.params.id),
  );

  app.get(
    '/price-lists/:id/prices',
    {
      schema: {
        tags,
        summary: 'List a price list’s prices',
        params: IdParams,
        querystring: PricesQuery,
        response: ok(PriceListPrices),
      },
    },
    async (req) => {
      const variants = req.query.variant_id === undefined ? undefined : [req.query.variant_id].flat();
      return listPrices(req.ctx, req.params.id, variants, pageOf(req.query, 50));
    },
  );

  app.post(
    '/price-lists/:id/prices/batch',
    {
      schema: {
        tags,
        summary: 'Create, update and delete a price list’s prices',
        params: IdParams,
        body: BatchPricesBody,
        response: ok(BatchPricesResult),
      },
    },
    async (req) => batchPrices(req.ctx, req.params.id, req.body),
  );

  app.post(
    '/price-lists/:id/products',
    {
      schema: {
        tags,
        summary: 'Remove the prices of products’ variants from a price list',
        params: IdParams,
        body: RemoveProductsBody,
        response: ok(PriceListEnvelope),
      },
    },
    async (req) => ({ price_list: await removeProducts(req.ctx, req.params.id, req.body.remove) }),
  );
});
