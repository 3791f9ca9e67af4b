import { deletedEnvelope, pageOf } from '../../platform/http/pagination.ts';
import type { FastifyRequest } from 'fastify';
import { currencyOfRow } from '../../platform/money/currency-lookup.ts';
import { ok } from '../../platform/http/responses.ts';
import { IdParams } from '../../platform/http/schema-types.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import {
  AdminShippingOptionQuery,
  CreateShippingOptionBody,
  ShippingOptionEnvelope,
  ShippingOptionList,
  UpdateShippingOptionBody,
} from './schema.ts';
import {
  createShippingOption,
  deleteShippingOption,
  findShippingOption,
  getShippingOption,
  listShippingOptions,
  updateShippingOption,
} from './service.ts';
import { adminResource } from '../../platform/http/permissions.ts';

const tags = ['shipping-options'];

const newRegionCurrency = currencyOfRow('regions', (req) => (req.body as { region_id?: string }).region_id);
async function optionCurrency(req: FastifyRequest): Promise<string | undefined> {
  if ((req.body as { region_id?: string }).region_id) return newRegionCurrency(req);
  return (await findShippingOption(req.ctx.db, (req.params as { id: string }).id))?.currency_code;
}

export const adminShippingOptionRoutes: RouteModule = adminResource('settings', (app) => {
  app.get(
    '/shipping-options',
    {
      schema: {
        tags,
        summary: 'List shipping options',
        querystring: AdminShippingOptionQuery,
        response: ok(ShippingOptionList),
      },
    },
    async (req) => {
      const page = pageOf(req.query);
      return { ...(await listShippingOptions(req.ctx, req.query.region_id, page)), ...page };
    },
  );

  app.get(
    '/shipping-options/:id',
    { schema: { tags, summary: 'Get a shipping option', params: IdParams, response: ok(ShippingOptionEnvelope) } },
    async (req) => ({ shipping_option: await getShippingOption(req.ctx, req.params.id) }),
  );

  app.post(
    '/shipping-options',
    {
      schema: {
        tags,
        summary: 'Create a flat-rate shipping option for a region',
        body: CreateShippingOptionBody,
        response: ok(ShippingOptionEnvelope),
      },
      config: { moneyCurrency: currencyOfRow('regions', (req) => (req.body as { region_id?: string }).region_id) },
    },
    async (req) => ({ shipping_option: await createShippingOption(req.ctx, req.body) }),
  );

  const update = {
    tags,
    summary: 'Update a shipping option',
    params: IdParams,
    body: UpdateShippingOptionBody,
    response: ok(ShippingOptionEnvelope),
  };
  for (const method of ['POST', 'PATCH'] as const) {
    app.route({
      method,
      url: '/shipping-options/:id',
      schema: update,
      // The new region's currency when the option moves, else its own region's.
      config: { moneyCurrency: optionCurrency },
      handler: async (req) => ({ shipping_option: await updateShippingOption(req.ctx, req.params.id, req.body) }),
    });
  }

  app.delete(
    '/shipping-options/:id',
    {
      schema: {
        tags,
        summary: 'Delete a shipping option (soft; a cart that chose it must choose again before completing)',
        params: IdParams,
        response: ok(deletedEnvelope('shipping_option')),
      },
    },
    async (req) => deleteShippingOption(req.ctx, req.params.id),
  );
});
