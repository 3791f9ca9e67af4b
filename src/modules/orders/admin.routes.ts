import { emptyBodyIsObject } from '../../platform/http/body.ts';
import { currencyOfRow, paramId } from '../../platform/money/currency-lookup.ts';
import { pageOf } from '../../platform/http/pagination.ts';
import { ok } from '../../platform/http/responses.ts';
import { IdParams } from '../../platform/http/schema-types.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import { OrderRefundBody } from '../payments/ledger-schema.ts';
import { cancelOrder } from './cancel.ts';
import {
  AdminOrderEnvelope,
  AdminOrderList,
  AdminOrderQuery,
  CreateFulfillmentBody,
  CreateShipmentBody,
  EmptyBody,
  FulfillmentParams,
  NoNotificationBody,
} from './desk-schema.ts';
import { cancelFulfillment, createFulfillment, createShipment, markDelivered } from './fulfillment-actions.ts';
import { getOrder, listOrders } from './listing.ts';
import { captureOrder, refundOrder } from './payment-actions.ts';
import { adminResource } from '../../platform/http/permissions.ts';
import { listOrderItems, updateOrderDetails } from './order-details.ts';
import {
  OrderItemList,
  OrderItemsQuery,
  OrderShippingOptionList,
  OrderShippingOptionsQuery,
  UpdateOrderBody,
} from './order-details-schema.ts';
import { orderShippingOptions } from './order-shipping-options.ts';
import { importOrders } from './import.ts';
import { ImportOrdersBody, ImportOrdersResponse } from './import-schema.ts';

const tags = ['orders'];
const reply = ok(AdminOrderEnvelope);
// Medusa's SDK posts actions without a body: that means `{}`.
const preValidation = emptyBodyIsObject;

export const adminOrderRoutes: RouteModule = adminResource('orders', (app) => {
  app.get(
    '/orders',
    {
      schema: {
        tags,
        summary: 'List orders (filters: statuses, customer, email, created_at range, q)',
        querystring: AdminOrderQuery,
        response: ok(AdminOrderList),
      },
    },
    async (req) => {
      const page = pageOf(req.query, 15);
      return { ...(await listOrders(req.ctx, req.query, page)), ...page };
    },
  );

  app.post(
    '/orders/import',
    {
      // A page of 1,000 orders with their lines and addresses runs to a few MB.
      bodyLimit: 16 * 1024 * 1024,
      schema: {
        tags,
        summary: 'Import orders placed elsewhere, as they were (all of a request or none; no stock moves, no emails)',
        body: ImportOrdersBody,
        response: ok(ImportOrdersResponse),
      },
    },
    async (req) => importOrders(req.ctx, req.body.orders),
  );

  app.get(
    '/orders/:id',
    {
      schema: {
        tags,
        summary: 'An order with items, totals, payments (captures, refunds) and fulfillments',
        params: IdParams,
        response: reply,
      },
    },
    async (req) => ({ order: await getOrder(req.ctx, req.params.id) }),
  );

  app.post(
    '/orders/:id',
    {
      schema: {
        tags,
        summary: 'Correct the email, addresses or metadata of an order (event order.updated)',
        params: IdParams,
        body: UpdateOrderBody,
        response: reply,
      },
      preValidation,
    },
    async (req) => ({ order: await updateOrderDetails(req.ctx, req.params.id, req.body) }),
  );

  app.get(
    '/orders/:id/line-items',
    {
      schema: {
        tags,
        summary: "The order's lines as Medusa's order items (filters: id, item_id)",
        params: IdParams,
        querystring: OrderItemsQuery,
        response: ok(OrderItemList),
      },
    },
    async (req) => ({ order_items: await listOrderItems(req.ctx, req.params.id, req.query) }),
  );

  app.get(
    '/orders/:id/shipping-options',
    {
      schema: {
        tags,
        summary: "The shipping options that serve the order's region, channel, address and products",
        params: IdParams,
        querystring: OrderShippingOptionsQuery,
        response: ok(OrderShippingOptionList),
      },
    },
    async (req) => ({ shipping_options: await orderShippingOptions(req.ctx, req.params.id) }),
  );

  app.post(
    '/orders/:id/capture',
    {
      schema: {
        tags,
        summary: 'Capture every authorized payment of the order (event order.paid)',
        params: IdParams,
        body: EmptyBody,
        response: reply,
      },
      preValidation,
    },
    async (req) => ({ order: await captureOrder(req.ctx, req.params.id, req.server.providers) }),
  );

  app.post(
    '/orders/:id/refunds',
    {
      schema: {
        tags,
        summary: 'Refund part of what was captured (event order.refunded)',
        params: IdParams,
        body: OrderRefundBody,
        response: reply,
      },
      config: { moneyCurrency: currencyOfRow('orders', paramId), action: 'refund' },
    },
    async (req) => ({ order: await refundOrder(req.ctx, req.params.id, req.body, req.server.providers) }),
  );

  app.post(
    '/orders/:id/cancel',
    {
      schema: {
        tags,
        summary: 'Cancel: restock, refund captured money, release authorizations (event order.cancelled)',
        params: IdParams,
        body: EmptyBody,
        response: reply,
      },
      // Cancelling gives captured money back, so it takes the refund permission.
      config: { action: 'refund' },
      preValidation,
    },
    async (req) => ({ order: await cancelOrder(req.ctx, req.params.id, req.server.providers) }),
  );

  app.post(
    '/orders/:id/fulfillments',
    {
      schema: {
        tags,
        summary: 'Fulfil order lines (event order.fulfilled)',
        params: IdParams,
        body: CreateFulfillmentBody,
        response: reply,
      },
    },
    async (req) => ({ order: await createFulfillment(req.ctx, req.params.id, req.body, req.server.providers) }),
  );

  app.post(
    '/orders/:id/fulfillments/:fulfillment_id/shipments',
    {
      schema: {
        tags,
        summary: 'Ship a fulfillment (event order.shipped)',
        params: FulfillmentParams,
        body: CreateShipmentBody,
        response: reply,
      },
      preValidation,
    },
    async (req) => ({ order: await createShipment(req.ctx, req.params.id, req.params.fulfillment_id, req.body) }),
  );

  app.post(
    '/orders/:id/fulfillments/:fulfillment_id/mark-as-delivered',
    {
      schema: {
        tags,
        summary: 'Mark a shipped fulfillment delivered',
        params: FulfillmentParams,
        body: NoNotificationBody,
        response: reply,
      },
      preValidation,
    },
    async (req) => ({ order: await markDelivered(req.ctx, req.params.id, req.params.fulfillment_id) }),
  );

  app.post(
    '/orders/:id/fulfillments/:fulfillment_id/cancel',
    {
      schema: {
        tags,
        summary: 'Cancel a fulfillment that has not shipped',
        params: FulfillmentParams,
        body: NoNotificationBody,
        response: reply,
      },
      preValidation,
    },
    async (req) => ({
      order: await cancelFulfillment(req.ctx, req.params.id, req.params.fulfillment_id, req.server.providers),
    }),
  );
});
