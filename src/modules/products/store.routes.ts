import type { FastifyRequest } from 'fastify';
import { IdParams } from '../../platform/http/schema-types.ts';
import { ok } from '../../platform/http/responses.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import { sendJsonText } from './json-reply.ts';
import { StoreGetQuery, StoreListQuery, StoreProductList, StoreProductResponse } from './schema.ts';
import { StoreCache } from './store-cache.ts';
import { type Caching, getStoreProduct, listStoreProducts } from './store-service.ts';
import { customerGroupIds } from '../customer-groups/service.ts';
import { withTaxAmounts } from './store-tax-prices.ts';

// The signed-in customer's groups decide which price lists apply; only read when prices are asked for.
const groupsOf = (req: FastifyRequest & { query: { region_id?: string } }) =>
  req.query.region_id && req.customer ? customerGroupIds(req.ctx, req.customer.id) : Promise.resolve([]);

const tags = ['store products'];

type Place = { region_id?: string; country_code?: string; province?: string };
const taxedFor = (q: Place) =>
  q.region_id && q.country_code
    ? { region_id: q.region_id, country_code: q.country_code, province: q.province }
    : undefined;

// The hot path: stored documents plus live values, one statement (README.md "Store read path"),
// answered from memory while the catalog version stays the same (store-cache.ts).
export const storeProductRoutes: RouteModule = async (app, deps) => {
  const { cache, listing, close } = await StoreCache.open(deps.database, app.catalogLeases);
  app.addHook('onClose', close);
  // Every store route of this scope (categories and collections keep their products there).
  app.addHook('onRequest', (req, _reply, done) => {
    req.ctx.storeListing = listing;
    done();
  });
  // A repeat of a request answered here is answered from this cache by the routes' last onRequest hook.
  const repeats = app.repeatReads;
  repeats.attach(cache);
  // With a country, the answer is taxed after the cache (store-tax-prices.ts): no repeat is kept for it.
  const caching = (req: FastifyRequest & { query: Place }): Caching => ({
    cache,
    listing,
    repeat: taxedFor(req.query) ? undefined : repeats.keyOf(req, req.store!),
  });
  const taxed = async (req: FastifyRequest & { query: Place }, body: string | Buffer) => {
    const place = taxedFor(req.query);
    return place ? withTaxAmounts(req.ctx, body, place) : body;
  };
  app.get(
    '/products',
    {
      config: { shapesFields: true },
      onRequest: repeats.onRequest,
      schema: {
        tags,
        summary: 'List published products of the key’s sales channels',
        querystring: StoreListQuery,
        response: ok(StoreProductList),
      },
    },
    async (req, reply) =>
      sendJsonText(
        reply,
        await taxed(req, await listStoreProducts(req.ctx, req.store!, req.query, caching(req), await groupsOf(req))),
      ),
  );

  app.get(
    '/products/:id',
    {
      config: { shapesFields: true },
      onRequest: repeats.onRequest,
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
        await taxed(
          req,
          await getStoreProduct(req.ctx, req.store!, req.params.id, req.query, caching(req), await groupsOf(req)),
        ),
      ),
  );
};
