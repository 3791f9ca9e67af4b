import { Type } from 'typebox';
import { parseFields } from '../../platform/http/fields.ts';
import { deletedEnvelope, pageOf } from '../../platform/http/pagination.ts';
import { adminResource } from '../../platform/http/permissions.ts';
import { ok } from '../../platform/http/responses.ts';
import { IdParams } from '../../platform/http/schema-types.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import { splitList } from '../sales-channels/service.ts';
import { FieldsQuery, StockLocationEnvelope } from '../stock-locations/schema.ts';
import { getLocation } from '../stock-locations/service.ts';
import type { Executor } from '../../platform/db/database.ts';
import {
  CreateFulfillmentSetBody,
  CreateServiceZoneBody,
  CreateShippingProfileBody,
  FulfillmentOptionList,
  FulfillmentProviderList,
  FulfillmentProviderQuery,
  FulfillmentSet,
  FulfillmentSetEnvelope,
  ServiceZoneEnvelope,
  ShippingProfileEnvelope,
  ShippingProfileList,
  ShippingProfileQuery,
  UpdateServiceZoneBody,
  UpdateShippingProfileBody,
  ZoneParams,
} from './schema.ts';
import { listProviders, providerOptions } from './providers.ts';
import {
  createProfile,
  createSet,
  createZone,
  deleteProfile,
  deleteSet,
  deleteZone,
  getProfile,
  getSet,
  getZone,
  listProfiles,
  setsWithZones,
  updateProfile,
  updateZone,
} from './service.ts';

const tags = ['fulfillment'];

/** A location as `GET /admin/stock-locations/{id}?fields=*fulfillment_sets` shows it. */
export async function locationWithSets(db: Executor, id: string, channels: boolean) {
  const location = await getLocation(db, id, channels);
  return { ...location, fulfillment_sets: await setsWithZones(db, [id]) };
}

export const fulfillmentRoutes: RouteModule = adminResource('settings', (app) => {
  app.get(
    '/shipping-profiles',
    {
      schema: {
        tags,
        summary: 'List shipping profiles',
        querystring: ShippingProfileQuery,
        response: ok(ShippingProfileList),
      },
    },
    async (req) => {
      const page = pageOf(req.query);
      const { q, id, name, type } = req.query;
      return { ...(await listProfiles(req.ctx, { q, id, name, type }, page)), ...page };
    },
  );
  app.post(
    '/shipping-profiles',
    {
      schema: {
        tags,
        summary: 'Create a shipping profile',
        body: CreateShippingProfileBody,
        response: ok(ShippingProfileEnvelope),
      },
    },
    async (req) => ({ shipping_profile: await createProfile(req.ctx, req.body) }),
  );
  app.get(
    '/shipping-profiles/:id',
    {
      schema: {
        tags,
        summary: 'Get a shipping profile',
        params: IdParams,
        querystring: FieldsQuery,
        response: ok(ShippingProfileEnvelope),
      },
    },
    async (req) => ({ shipping_profile: await getProfile(req.ctx.db, req.params.id) }),
  );
  app.post(
    '/shipping-profiles/:id',
    {
      schema: {
        tags,
        summary: 'Update a shipping profile',
        params: IdParams,
        body: UpdateShippingProfileBody,
        response: ok(ShippingProfileEnvelope),
      },
    },
    async (req) => ({ shipping_profile: await updateProfile(req.ctx, req.params.id, req.body) }),
  );
  app.delete(
    '/shipping-profiles/:id',
    {
      schema: {
        tags,
        summary: 'Delete a shipping profile (not the default one, nor one options or products use)',
        params: IdParams,
        response: ok(deletedEnvelope('shipping_profile')),
      },
    },
    async (req) => deleteProfile(req.ctx, req.params.id),
  );

  app.post(
    '/stock-locations/:id/fulfillment-sets',
    {
      schema: {
        tags,
        summary: 'Add a fulfilment set (shipping or pickup) to a stock location',
        params: IdParams,
        querystring: FieldsQuery,
        body: CreateFulfillmentSetBody,
        response: ok(StockLocationEnvelope),
      },
    },
    async (req) => ({
      stock_location: await createSet(req.ctx, req.params.id, req.body, (db) =>
        locationWithSets(db, req.params.id, parseFields(req.query.fields).relations.has('sales_channels')),
      ),
    }),
  );

  app.get(
    '/fulfillment-sets/:id',
    {
      schema: {
        tags,
        summary: 'Get a fulfilment set with its zones',
        params: IdParams,
        querystring: FieldsQuery,
        response: ok(FulfillmentSetEnvelope),
      },
    },
    async (req) => ({ fulfillment_set: await getSet(req.ctx.db, req.params.id) }),
  );
  app.delete(
    '/fulfillment-sets/:id',
    {
      schema: {
        tags,
        summary: 'Delete a fulfilment set, its service zones and their shipping options',
        params: IdParams,
        response: ok(deletedEnvelope('fulfillment_set')),
      },
    },
    async (req) => deleteSet(req.ctx, req.params.id),
  );
  app.post(
    '/fulfillment-sets/:id/service-zones',
    {
      schema: {
        tags,
        summary: 'Add a service zone (its geo zones) to a fulfilment set',
        params: IdParams,
        querystring: FieldsQuery,
        body: CreateServiceZoneBody,
        response: ok(FulfillmentSetEnvelope),
      },
    },
    async (req) => ({ fulfillment_set: await createZone(req.ctx, req.params.id, req.body) }),
  );
  app.get(
    '/fulfillment-sets/:id/service-zones/:zone_id',
    {
      schema: {
        tags,
        summary: 'Get a service zone',
        params: ZoneParams,
        querystring: FieldsQuery,
        response: ok(ServiceZoneEnvelope),
      },
    },
    async (req) => ({ service_zone: await getZone(req.ctx.db, req.params.id, req.params.zone_id) }),
  );
  app.post(
    '/fulfillment-sets/:id/service-zones/:zone_id',
    {
      schema: {
        tags,
        summary: 'Update a service zone (geo_zones replaces its list)',
        params: ZoneParams,
        querystring: FieldsQuery,
        body: UpdateServiceZoneBody,
        response: ok(FulfillmentSetEnvelope),
      },
    },
    async (req) => ({ fulfillment_set: await updateZone(req.ctx, req.params.id, req.params.zone_id, req.body) }),
  );
  app.delete(
    '/fulfillment-sets/:id/service-zones/:zone_id',
    {
      schema: {
        tags,
        summary: 'Delete a service zone and its shipping options',
        params: ZoneParams,
        response: ok(
          Type.Object({
            id: Type.String(),
            object: Type.Literal('service_zone'),
            deleted: Type.Literal(true),
            parent: FulfillmentSet,
          }),
        ),
      },
    },
    async (req) => deleteZone(req.ctx, req.params.id, req.params.zone_id),
  );

  app.get(
    '/fulfillment-providers',
    {
      schema: {
        tags,
        summary: 'List fulfilment providers (the manual one and those of running plugins)',
        querystring: FulfillmentProviderQuery,
        response: ok(FulfillmentProviderList),
      },
    },
    async (req) => listProviders(req.server.providers, splitList(req.query.id), pageOf(req.query)),
  );
  app.get(
    '/fulfillment-providers/:id/options',
    {
      schema: {
        tags,
        summary: "A provider's fulfilment options (what a shipping option's `data` may name)",
        params: IdParams,
        response: ok(FulfillmentOptionList),
      },
    },
    async (req) => providerOptions(req.server.providers, req.params.id),
  );
});
