import { pageOf } from '../../platform/http/pagination.ts';
import { ok } from '../../platform/http/responses.ts';
import { IdParams } from '../../platform/http/schema-types.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import { requireCustomer } from '../customers/customer-auth.ts';
import { StoreOrderEnvelope, StoreOrderList, StoreOrderQuery } from './desk-schema.ts';
import { getCustomerOrder, listCustomerOrders } from './listing.ts';

const tags = ['orders'];

/** The signed-in customer's own orders (401 without a customer; another customer's order is a 404). */
export const storeOrderRoutes: RouteModule = (app) => {
  app.get(
    '/orders',
    {
      schema: {
        tags,
        summary: "The customer's orders, newest first",
        querystring: StoreOrderQuery,
        response: ok(StoreOrderList),
      },
    },
    async (req) => {
      const customer = requireCustomer(req);
      const page = pageOf(req.query);
      return { ...(await listCustomerOrders(req.ctx, customer.id, page)), ...page };
    },
  );

  app.get(
    '/orders/:id',
    { schema: { tags, summary: 'One of the customer’s orders', params: IdParams, response: ok(StoreOrderEnvelope) } },
    async (req) => ({ order: await getCustomerOrder(req.ctx, requireCustomer(req).id, req.params.id) }),
  );
};
