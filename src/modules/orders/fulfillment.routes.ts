import { emptyBodyIsObject } from '../../platform/http/body.ts';
import { adminResource } from '../../platform/http/permissions.ts';
import { ok } from '../../platform/http/responses.ts';
import { IdParams } from '../../platform/http/schema-types.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import { EmptyBody } from './desk-schema.ts';
import { cancelFulfillmentById, createOrderFulfillment, shipFulfillmentById } from './fulfillment-by-id.ts';
import { CreateFulfillmentRequest, FulfillmentEnvelope, ShipFulfillmentRequest } from './fulfillment-schema.ts';

const tags = ['orders'];
const reply = ok(FulfillmentEnvelope);

/** Medusa's `/admin/fulfillments` (its SDK's `admin.fulfillment`): the order desk's fulfilments, named by their own id. */
export const adminFulfillmentRoutes: RouteModule = adminResource('orders', (app) => {
  app.post(
    '/fulfillments',
    {
      schema: {
        tags,
        summary: 'Fulfil lines of an order, as POST /orders/{id}/fulfillments (event order.fulfilled)',
        body: CreateFulfillmentRequest,
        response: reply,
      },
    },
    async (req) => ({ fulfillment: await createOrderFulfillment(req.ctx, req.body, req.server.providers) }),
  );

  app.post(
    '/fulfillments/:id/cancel',
    {
      schema: {
        tags,
        summary: 'Cancel a fulfillment that has not shipped',
        params: IdParams,
        body: EmptyBody,
        response: reply,
      },
      preValidation: emptyBodyIsObject,
    },
    async (req) => ({ fulfillment: await cancelFulfillmentById(req.ctx, req.params.id, req.server.providers) }),
  );

  app.post(
    '/fulfillments/:id/shipment',
    {
      schema: {
        tags,
        summary: 'Ship a whole fulfillment with its labels (event order.shipped)',
        params: IdParams,
        body: ShipFulfillmentRequest,
        response: reply,
      },
    },
    async (req) => ({ fulfillment: await shipFulfillmentById(req.ctx, req.params.id, req.body) }),
  );
});
