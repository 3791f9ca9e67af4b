import { Type } from 'typebox';
import { deletedEnvelope, pageOf } from '../../platform/http/pagination.ts';
import { ok } from '../../platform/http/responses.ts';
import { IdParams } from '../../platform/http/schema-types.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import { addLevel, batchItemsLevels, batchLevels, deleteLevel, listLevels, updateLevel } from './levels.ts';
import {
  BatchItemsLevelsBody,
  BatchLevelsBody,
  BatchLevelsResult,
  BatchVariantItemsBody,
  BatchVariantItemsResult,
  CreateInventoryItemBody,
  CreateLevelBody,
  InventoryItem,
  InventoryItemEnvelope,
  InventoryItemList,
  InventoryItemQuery,
  InventoryLevelList,
  LevelParams,
  LevelQuery,
  UpdateInventoryItemBody,
  UpdateLevelBody,
} from './schema.ts';
import { getItem } from './item-view.ts';
import { createItem, deleteItem, listItems, updateItem } from './service.ts';
import { batchVariantItems } from './variant-links.ts';
import { adminResource } from '../../platform/http/permissions.ts';

const tags = ['inventory-items'];

const LevelDeleted = Type.Object({
  id: Type.String(),
  object: Type.Literal('inventory-level'),
  deleted: Type.Literal(true),
  parent: InventoryItem,
});

export const inventoryRoutes: RouteModule = adminResource('inventory', (app) => {
  app.get(
    '/inventory-items',
    {
      schema: {
        tags,
        summary: 'List inventory items',
        querystring: InventoryItemQuery,
        response: ok(InventoryItemList),
      },
    },
    async (req) => {
      const page = pageOf(req.query, 20);
      const { q, id, sku, requires_shipping, location_levels } = req.query;
      const filters = { q, id, sku, requires_shipping, location_id: location_levels?.location_id };
      return { ...(await listItems(req.ctx, filters, page)), ...page };
    },
  );

  app.post(
    '/inventory-items',
    {
      schema: {
        tags,
        summary: 'Create an inventory item, with levels',
        body: CreateInventoryItemBody,
        response: ok(InventoryItemEnvelope),
      },
    },
    async (req) => ({ inventory_item: await createItem(req.ctx, req.body) }),
  );

  app.post(
    '/inventory-items/location-levels/batch',
    {
      schema: {
        tags,
        summary: 'Create, update and delete levels of several inventory items together',
        body: BatchItemsLevelsBody,
        response: ok(BatchLevelsResult),
      },
    },
    async (req) => batchItemsLevels(req.ctx, req.body),
  );

  app.get(
    '/inventory-items/:id',
    { schema: { tags, summary: 'Get an inventory item', params: IdParams, response: ok(InventoryItemEnvelope) } },
    async (req) => ({ inventory_item: await getItem(req.ctx.db, req.params.id) }),
  );

  app.post(
    '/inventory-items/:id',
    {
      schema: {
        tags,
        summary: 'Update an inventory item',
        params: IdParams,
        body: UpdateInventoryItemBody,
        response: ok(InventoryItemEnvelope),
      },
    },
    async (req) => ({ inventory_item: await updateItem(req.ctx, req.params.id, req.body) }),
  );

  app.delete(
    '/inventory-items/:id',
    {
      schema: {
        tags,
        summary: 'Delete an inventory item (soft), with its levels and variant links',
        params: IdParams,
        response: ok(deletedEnvelope('inventory_item')),
      },
    },
    async (req) => deleteItem(req.ctx, req.params.id),
  );

  app.get(
    '/inventory-items/:id/location-levels',
    {
      schema: {
        tags,
        summary: "List an inventory item's levels",
        params: IdParams,
        querystring: LevelQuery,
        response: ok(InventoryLevelList),
      },
    },
    async (req) => {
      const page = pageOf(req.query, 50);
      return { ...(await listLevels(req.ctx, req.params.id, req.query.location_id, page)), ...page };
    },
  );

  app.post(
    '/inventory-items/:id/location-levels',
    {
      schema: {
        tags,
        summary: 'Stock an inventory item at a location',
        params: IdParams,
        body: CreateLevelBody,
        response: ok(InventoryItemEnvelope),
      },
    },
    async (req) => ({ inventory_item: await addLevel(req.ctx, req.params.id, req.body) }),
  );

  app.post(
    '/inventory-items/:id/location-levels/batch',
    {
      schema: {
        tags,
        summary: "Create, update and delete an inventory item's levels together",
        params: IdParams,
        body: BatchLevelsBody,
        response: ok(BatchLevelsResult),
      },
    },
    async (req) => batchLevels(req.ctx, req.params.id, req.body),
  );

  app.post(
    '/inventory-items/:id/location-levels/:location_id',
    {
      schema: {
        tags,
        summary: "Update an inventory item's level at a location",
        params: LevelParams,
        body: UpdateLevelBody,
        response: ok(InventoryItemEnvelope),
      },
    },
    async (req) => ({
      inventory_item: await updateLevel(req.ctx, req.params.id, req.params.location_id, req.body),
    }),
  );

  app.delete(
    '/inventory-items/:id/location-levels/:location_id',
    {
      schema: {
        tags,
        summary: "Remove an inventory item's level at a location (nothing may be reserved there)",
        params: LevelParams,
        response: ok(LevelDeleted),
      },
    },
    async (req) => deleteLevel(req.ctx, req.params.id, req.params.location_id),
  );

  app.post(
    '/products/:id/variants/inventory-items/batch',
    {
      schema: {
        tags,
        summary: "Link a product's variants to inventory items (required_quantity per unit sold)",
        params: IdParams,
        body: BatchVariantItemsBody,
        response: ok(BatchVariantItemsResult),
      },
    },
    async (req) => batchVariantItems(req.ctx, req.params.id, req.body),
  );
});
