import { deletedEnvelope, pageOf } from '../../platform/http/pagination.ts';
import type { FastifyRequest } from 'fastify';
import { currencyOfRow } from '../../platform/money/currency-lookup.ts';
import { ok } from '../../platform/http/responses.ts';
import { IdParams } from '../../platform/http/schema-types.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import { batchOptionRules } from './rules-batch.ts';
import {
  AdminShippingOptionQuery,
  BatchOptionRulesBody,
  BatchOptionRulesResult,
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
  return (await findShippingOption(req.ctx.db, (req.params as { id: string }).id))?.currency_code ?? undefined;
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
      const { region_id, service_zone_id, shipping_profile_id, stock_location_id } = req.query;
      const filters = { region_id, service_zone_id, shipping_profile_id, stock_location_id };
      return { ...(await listShippingOptions(req.ctx, filters, page)), ...page };
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
        summary: "Create a shipping option: in a service zone (Medusa's shape) or, flat, for a region (the spec's)",
        body: CreateShippingOptionBody,
        response: ok(ShippingOptionEnvelope),
      },
      config: { moneyCurrency: currencyOfRow('regions', (req) => (req.body as { region_id?: string }).region_id) },
    },
    async (req) => ({ shipping_option: await createShippingOption(req.ctx, req.body, req.server.providers) }),
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
      handler: async (req) => ({
        shipping_option: await updateShippingOption(req.ctx, req.params.id, req.body, req.server.providers),
      }),
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

  app.post(
    '/shipping-options/:id/rules/batch',
    {
      schema: {
        tags,
        summary: "Add, change and remove a shipping option's rules at once (all or nothing)",
        params: IdParams,
        body: BatchOptionRulesBody,
        response: ok(BatchOptionRulesResult),
      },
    },
    async (req) => batchOptionRules(req.ctx, req.params.id, req.body),
  );
});
