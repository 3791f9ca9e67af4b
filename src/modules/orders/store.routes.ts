import { pageOf } from '../../platform/http/pagination.ts';
import { ok } from '../../platform/http/responses.ts';
import { IdParams } from '../../platform/http/schema-types.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import { requireCustomer } from '../customers/customer-auth.ts';
import { StoreOrderEnvelope, StoreOrderGetQuery, StoreOrderList, StoreOrderQuery } from './desk-schema.ts';
import { getStoreOrder, listCustomerOrders } from './listing.ts';

const tags = ['orders'];

/** The signed-in customer's orders (401 without one); one order by id also for guests' orders (see getStoreOrder). */
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
    {
      schema: {
        tags,
        summary: 'An order: a guest’s to whoever holds its id, a customer’s only to that customer',
        params: IdParams,
        querystring: StoreOrderGetQuery,
        response: ok(StoreOrderEnvelope),
      },
    },
    async (req) => ({ order: await getStoreOrder(req.ctx, req.customer?.id ?? null, req.params.id) }),
  );
};
