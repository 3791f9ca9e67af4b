import { Type } from 'typebox';
import { deletedEnvelope, listEnvelope, pageOf, pageQuery } from '../../platform/http/pagination.ts';
import { ok } from '../../platform/http/responses.ts';
import { IdParams, Nullable } from '../../platform/http/schema-types.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import {
  createPricePreference,
  deletePricePreference,
  getPricePreference,
  listPricePreferences,
  updatePricePreference,
} from './preferences.ts';
import {
  CreatePricePreferenceBody,
  CreateTaxRateBody,
  CreateTaxRegionBody,
  PricePreference,
  PricePreferenceQuery,
  TaxRate,
  TaxRateQuery,
  TaxRegion,
  TaxRegionQuery,
  UpdatePricePreferenceBody,
  UpdateTaxRateBody,
  UpdateTaxRegionBody,
} from './schema.ts';
import {
  createTaxRate,
  createTaxRegion,
  deleteTaxRate,
  deleteTaxRegion,
  getTaxRate,
  getTaxRegion,
  listTaxRates,
  listTaxRegions,
  updateTaxRate,
  updateTaxRegion,
} from './service.ts';
import { adminResource } from '../../platform/http/permissions.ts';
import { listTaxProviders } from './providers.ts';

const FieldsQuery = Type.Object({ fields: Type.Optional(Type.String({ maxLength: 2000 })) });

const TaxProvider = Type.Object({
  id: Type.String(),
  is_enabled: Type.Boolean(),
  name: Type.String(),
  plugin: Nullable(Type.String()),
});
const IdFilter = Type.Union([
  Type.String({ maxLength: 200 }),
  Type.Array(Type.String({ maxLength: 200 }), { maxItems: 100 }),
]);

/** `/admin/tax-regions`, `/admin/tax-rates`, `/admin/tax-providers` and `/admin/price-preferences`, in Medusa's shapes. */
export const adminTaxRoutes: RouteModule = adminResource('settings', (app) => {
  app.get(
    '/tax-providers',
    {
      schema: {
        tags: ['tax-providers'],
        summary: 'Tax providers a tax region can name: the built-in rates and the running plugins’ providers',
        querystring: Type.Object({
          ...pageQuery(20),
          id: Type.Optional(IdFilter),
          is_enabled: Type.Optional(Type.Boolean()),
          fields: Type.Optional(Type.String({ maxLength: 2000 })),
        }),
        response: ok(listEnvelope('tax_providers', TaxProvider)),
      },
    },
    async (req) => listTaxProviders(req.server.providers, req.query, pageOf(req.query)),
  );
  const regionEnvelope = ok(Type.Object({ tax_region: TaxRegion }));
  app.get(
    '/tax-regions',
    {
      schema: {
        tags: ['tax-regions'],
        querystring: TaxRegionQuery,
        response: ok(listEnvelope('tax_regions', TaxRegion)),
      },
    },
    async (req) => {
      const page = pageOf(req.query);
      return { ...(await listTaxRegions(req.ctx, req.query, page)), ...page };
    },
  );
  app.get(
    '/tax-regions/:id',
    { schema: { tags: ['tax-regions'], params: IdParams, querystring: FieldsQuery, response: regionEnvelope } },
    async (req) => ({ tax_region: await getTaxRegion(req.ctx, req.params.id) }),
  );
  app.post(
    '/tax-regions',
    {
      schema: { tags: ['tax-regions'], querystring: FieldsQuery, body: CreateTaxRegionBody, response: regionEnvelope },
    },
    async (req) => ({ tax_region: await createTaxRegion(req.ctx, req.body) }),
  );
  app.post(
    '/tax-regions/:id',
    {
      schema: {
        tags: ['tax-regions'],
        params: IdParams,
        querystring: FieldsQuery,
        body: UpdateTaxRegionBody,
        response: regionEnvelope,
      },
    },
    async (req) => ({ tax_region: await updateTaxRegion(req.ctx, req.params.id, req.body) }),
  );
  app.delete(
    '/tax-regions/:id',
    { schema: { tags: ['tax-regions'], params: IdParams, response: ok(deletedEnvelope('tax_region')) } },
    async (req) => deleteTaxRegion(req.ctx, req.params.id),
  );

  const rateEnvelope = ok(Type.Object({ tax_rate: TaxRate }));
  app.get(
    '/tax-rates',
    { schema: { tags: ['tax-rates'], querystring: TaxRateQuery, response: ok(listEnvelope('tax_rates', TaxRate)) } },
    async (req) => {
      const page = pageOf(req.query);
      return { ...(await listTaxRates(req.ctx, req.query, page)), ...page };
    },
  );
  app.get(
    '/tax-rates/:id',
    { schema: { tags: ['tax-rates'], params: IdParams, querystring: FieldsQuery, response: rateEnvelope } },
    async (req) => ({ tax_rate: await getTaxRate(req.ctx, req.params.id) }),
  );
  app.post(
    '/tax-rates',
    { schema: { tags: ['tax-rates'], querystring: FieldsQuery, body: CreateTaxRateBody, response: rateEnvelope } },
    async (req) => ({ tax_rate: await createTaxRate(req.ctx, req.body) }),
  );
  app.post(
    '/tax-rates/:id',
    {
      schema: {
        tags: ['tax-rates'],
        params: IdParams,
        querystring: FieldsQuery,
        body: UpdateTaxRateBody,
        response: rateEnvelope,
      },
    },
    async (req) => ({ tax_rate: await updateTaxRate(req.ctx, req.params.id, req.body) }),
  );
  app.delete(
    '/tax-rates/:id',
    { schema: { tags: ['tax-rates'], params: IdParams, response: ok(deletedEnvelope('tax_rate')) } },
    async (req) => deleteTaxRate(req.ctx, req.params.id),
  );

  const prefEnvelope = ok(Type.Object({ price_preference: PricePreference }));
  app.get(
    '/price-preferences',
    {
      schema: {
        tags: ['price-preferences'],
        querystring: PricePreferenceQuery,
        response: ok(listEnvelope('price_preferences', PricePreference)),
      },
    },
    async (req) => {
      const page = pageOf(req.query);
      return { ...(await listPricePreferences(req.ctx, req.query, page)), ...page };
    },
  );
  app.get(
    '/price-preferences/:id',
    { schema: { tags: ['price-preferences'], params: IdParams, querystring: FieldsQuery, response: prefEnvelope } },
    async (req) => ({ price_preference: await getPricePreference(req.ctx, req.params.id) }),
  );
  app.post(
    '/price-preferences',
    {
      schema: {
        tags: ['price-preferences'],
        querystring: FieldsQuery,
        body: CreatePricePreferenceBody,
        response: prefEnvelope,
      },
    },
    async (req) => ({ price_preference: await createPricePreference(req.ctx, req.body) }),
  );
  app.post(
    '/price-preferences/:id',
    {
      schema: {
        tags: ['price-preferences'],
        params: IdParams,
        querystring: FieldsQuery,
        body: UpdatePricePreferenceBody,
        response: prefEnvelope,
      },
    },
    async (req) => ({ price_preference: await updatePricePreference(req.ctx, req.params.id, req.body) }),
  );
  app.delete(
    '/price-preferences/:id',
    { schema: { tags: ['price-preferences'], params: IdParams, response: ok(deletedEnvelope('price_preference')) } },
    async (req) => deletePricePreference(req.ctx, req.params.id),
  );
});
