import { Type } from 'typebox';
import { errors } from '../../platform/http/errors.ts';
import { listEnvelope, pageOf, pageQuery } from '../../platform/http/pagination.ts';
import { adminResource } from '../../platform/http/permissions.ts';
import { ok } from '../../platform/http/responses.ts';
import { IdParams } from '../../platform/http/schema-types.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import { currencies, currencyOf } from './currencies.ts';
import { Currency, CurrencyListQuery, Store, UpdateStoreBody } from './schema.ts';
import { getStore, listStores, updateStore } from './service.ts';

const StoreEnvelope = Type.Object({ store: Store });

/** Medusa's `/admin/stores` (one store) and `/admin/currencies` (every ISO currency). */
export const adminStoreRoutes: RouteModule = adminResource('settings', (app) => {
  app.get(
    '/stores',
    {
      schema: {
        tags: ['stores'],
        summary: 'The store (one): name, currencies, defaults',
        querystring: Type.Object(pageQuery(50)),
        response: ok(listEnvelope('stores', Store)),
      },
    },
    async (req) => {
      const stores = await listStores(req.ctx);
      return { stores, count: stores.length, ...pageOf(req.query, 50) };
    },
  );

  app.get(
    '/stores/:id',
    { schema: { tags: ['stores'], summary: 'The store', params: IdParams, response: ok(StoreEnvelope) } },
    async (req) => ({ store: await getStore(req.ctx, req.params.id) }),
  );

  app.post(
    '/stores/:id',
    {
      schema: {
        tags: ['stores'],
        summary: 'Change the store: name, supported currencies (one default), default region, channel, location',
        params: IdParams,
        body: UpdateStoreBody,
        response: ok(StoreEnvelope),
      },
    },
    async (req) => ({ store: await updateStore(req.ctx, req.params.id, req.body) }),
  );

  app.get(
    '/currencies',
    {
      schema: {
        tags: ['currencies'],
        summary: 'Currencies (ISO 4217), filtered by code or a search in code and name',
        querystring: Type.Object({ ...pageQuery(200), ...CurrencyListQuery.properties }),
        response: ok(listEnvelope('currencies', Currency)),
      },
    },
    async (req) => {
      const page = pageOf(req.query, 200);
      const codes = req.query.code === undefined ? null : new Set([req.query.code].flat().map((c) => c.toLowerCase()));
      const needle = req.query.q?.toLowerCase();
      const matching = currencies().filter(
        (c) =>
          (!codes || codes.has(c.code)) &&
          (!needle || c.code.includes(needle) || c.name.toLowerCase().includes(needle)),
      );
      return { currencies: matching.slice(page.offset, page.offset + page.limit), count: matching.length, ...page };
    },
  );

  app.get(
    '/currencies/:code',
    {
      schema: {
        tags: ['currencies'],
        summary: 'A currency',
        params: Type.Object({ code: Type.String({ maxLength: 10 }) }),
        response: ok(Type.Object({ currency: Currency })),
      },
    },
    async (req) => {
      const currency = currencyOf(req.params.code);
      if (!currency) throw errors.notFound('currency_not_found', { code: req.params.code });
      return { currency };
    },
  );
});
