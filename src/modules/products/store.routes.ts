import type { FastifyRequest } from 'fastify';
import { IdParams } from '../../platform/http/schema-types.ts';
import { ok } from '../../platform/http/responses.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import { sendJsonText } from './json-reply.ts';
import { StoreGetQuery, StoreListQuery, StoreProductList, StoreProductResponse } from './schema.ts';
import { StoreCache } from './store-cache.ts';
import { type Caching, getStoreProduct, listStoreProducts } from './store-service.ts';
import { customerGroupIds } from '../customer-groups/service.ts';

// The signed-in customer's groups decide which price lists apply; only read when prices are asked for.
const groupsOf = (req: FastifyRequest & { query: { region_id?: string } }) =>
  req.query.region_id && req.customer ? customerGroupIds(req.ctx, req.customer.id) : Promise.resolve([]);

const tags = ['store products'];

// The hot path: stored documents plus live values, one statement (README.md "Store read path"),
// answered from memory while the catalog version stays the same (store-cache.ts).
export const storeProductRoutes: RouteModule = async (app, deps) => {
  const { cache, close } = await StoreCache.open(deps.database, app.catalogLeases);
  app.addHook('onClose', close);
  // Repeats of a request answered here are answered from this cache before Fastify sees them.
  const repeats = app.repeatReads;
  repeats.attach(`${app.prefix}/products`, cache);
  const caching = (req: FastifyRequest): Caching => ({ cache, repeat: repeats.keyOf(req, req.store!) });
  app.get(
    '/products',
    {
      schema: {
        tags,
        summary: 'List published products of the key’s sales channels',
        querystring: StoreListQuery,
        response: ok(StoreProductList),
      },
    },
    async (req, reply) =>
      sendJsonText(reply, await listStoreProducts(req.ctx, req.store!, req.query, caching(req), await groupsOf(req))),
  );

  app.get(
    '/products/:id',
    {
      schema: {
        tags,
        summary: 'Get a published product',
        params: IdParams,
        querystring: StoreGetQuery,
        response: ok(StoreProductResponse),
      },
    },
    async (req, reply) =>
      sendJsonText(
        reply,
        await getStoreProduct(req.ctx, req.store!, req.params.id, req.query, caching(req), await groupsOf(req)),
      ),
  );
};
