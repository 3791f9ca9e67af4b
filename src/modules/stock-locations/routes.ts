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

const tags = ['stock-locations'];

/** `fields=*sales_channels` (or any `sales_channels.x`) adds each location's channels. */
const wantsChannels = (fields: string | undefined) => parseFields(fields).relations.has('sales_channels');

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
      return { ...found, ...page };
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
    async (req) => ({ stock_location: await getLocation(req.ctx.db, req.params.id, wantsChannels(req.query.fields)) }),
  );

  app.post(
    '/stock-locations/:id',
    {
      schema: {
        tags,
        summary: 'Update a stock location',
        params: IdParams,
        querystring: FieldsQuery,
        body: UpdateStockLocationBody,
        response: ok(StockLocationEnvelope),
      },
    },
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
    {
      schema: {
        tags,
        summary: 'Add sales channels to and remove them from a stock location',
        params: IdParams,
        querystring: FieldsQuery,
        body: BatchLinkBody,
        response: ok(StockLocationEnvelope),
      },
    },
    async (req) => ({
      stock_location: await linkLocationChannels(req.ctx, req.params.id, req.body, wantsChannels(req.query.fields)),
    }),
  );
});
