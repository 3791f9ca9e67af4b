import type { TSchema } from 'typebox';
import { parseFields } from '../../platform/http/fields.ts';
import { deletedEnvelope, pageOf } from '../../platform/http/pagination.ts';
import { ok } from '../../platform/http/responses.ts';
import { IdParams } from '../../platform/http/schema-types.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import { BatchLinkBody } from '../sales-channels/schema.ts';
import {
  CreateStockLocationBody,
  FieldsQuery,
  StockLocationEnvelope,
  StockLocationList,
  StockLocationQuery,
  UpdateStockLocationBody,
} from './schema.ts';
import {
  createLocation,
  deleteLocation,
  getLocation,
  linkLocationChannels,
  listLocations,
  updateLocation,
} from './service.ts';
import { adminResource } from '../../platform/http/permissions.ts';
import type { Executor } from '../../platform/db/database.ts';
import { setsWithZones } from '../fulfillment/service.ts';
import { linkLocationProviders, withProviders } from './provider-links.ts';

const tags = ['stock-locations'];

/** `fields=*sales_channels` (or any `sales_channels.x`) adds each location's channels. */
const wantsChannels = (fields: string | undefined) => parseFields(fields).relations.has('sales_channels');
const wantsSets = (fields: string | undefined) => parseFields(fields).relations.has('fulfillment_sets');

const wantsProviders = (fields: string | undefined) => parseFields(fields).relations.has('fulfillment_providers');

/**
 * `fields=*fulfillment_sets` adds each location's fulfilment sets with their zones;
 * `fields=*fulfillment_providers` the providers that ship from it.
 */
async function withSets<T extends { id: string }>(db: Executor, locations: T[], fields: string | undefined) {
  const linked = wantsProviders(fields) ? await withProviders(db, locations) : locations;
  if (!wantsSets(fields)) return linked;
  const sets = await setsWithZones(
    db,
    locations.map((l) => l.id),
  );
  return linked.map((l) => ({ ...l, fulfillment_sets: sets.filter((s) => s.location_id === l.id) }));
}

/** One location as `fields` asks for it: with its channels, providers, fulfilment sets. */
async function shownLocation(db: Executor, id: string, fields: string | undefined) {
  const [shown] = await withSets(db, [await getLocation(db, id, wantsChannels(fields))], fields);
  return shown;
}

/** The schema of a change to one location (`{id}`, `fields`): its body, answered with the location. */
const onLocation = <Body extends TSchema>(summary: string, body: Body) => ({
  tags,
  summary,
  params: IdParams,
  querystring: FieldsQuery,
  body,
  response: ok(StockLocationEnvelope),
});

export const stockLocationRoutes: RouteModule = adminResource('inventory', (app) => {
  app.get(
    '/stock-locations',
    {
      schema: {
        tags,
        summary: 'List stock locations',
        querystring: StockLocationQuery,
        response: ok(StockLocationList),
      },
    },
    async (req) => {
      const page = pageOf(req.query, 20);
      const { q, id, name, address_id, sales_channel_id, fields } = req.query;
      const found = await listLocations(
        req.ctx,
        { q, id, name, address_id, sales_channel_id },
        page,
        wantsChannels(fields),
      );
      return { ...found, stock_locations: await withSets(req.ctx.db, found.stock_locations, fields), ...page };
    },
  );

  app.post(
    '/stock-locations',
    {
      schema: {
        tags,
        summary: 'Create a stock location',
        querystring: FieldsQuery,
        body: CreateStockLocationBody,
        response: ok(StockLocationEnvelope),
      },
    },
    async (req) => ({ stock_location: await createLocation(req.ctx, req.body, wantsChannels(req.query.fields)) }),
  );

  app.get(
    '/stock-locations/:id',
    {
      schema: {
        tags,
        summary: 'Get a stock location',
        params: IdParams,
        querystring: FieldsQuery,
        response: ok(StockLocationEnvelope),
      },
    },
    async (req) => ({ stock_location: await shownLocation(req.ctx.db, req.params.id, req.query.fields) }),
  );

  app.post(
    '/stock-locations/:id',
    { schema: onLocation('Update a stock location', UpdateStockLocationBody) },
    async (req) => ({
      stock_location: await updateLocation(req.ctx, req.params.id, req.body, wantsChannels(req.query.fields)),
    }),
  );

  app.delete(
    '/stock-locations/:id',
    {
      schema: {
        tags,
        summary: 'Delete a stock location (soft), with its levels and channel links',
        params: IdParams,
        response: ok(deletedEnvelope('stock_location')),
      },
    },
    async (req) => deleteLocation(req.ctx, req.params.id),
  );

  app.post(
    '/stock-locations/:id/sales-channels',
    { schema: onLocation('Add sales channels to and remove them from a stock location', BatchLinkBody) },
    async (req) => ({
      stock_location: await linkLocationChannels(req.ctx, req.params.id, req.body, wantsChannels(req.query.fields)),
    }),
  );

  app.post(
    '/stock-locations/:id/fulfillment-providers',
    {
      schema: onLocation(
        'Link fulfilment providers to a stock location and unlink them (a location linked to none: all ship)',
        BatchLinkBody,
      ),
    },
    async (req) => {
      await linkLocationProviders(req.ctx, req.params.id, req.body, req.server.providers);
      return { stock_location: await shownLocation(req.ctx.db, req.params.id, req.query.fields) };
    },
  );
});
