import type { Ctx } from '../../platform/context.ts';
import { errors } from '../../platform/http/errors.ts';
import { parseFields } from '../../platform/http/fields.ts';
import { ok } from '../../platform/http/responses.ts';
import type { App, AppDeps, RouteModule } from '../../platform/http/types.ts';
import { tokenKeys } from '../auth/tokens.ts';
import type { TSchema } from 'typebox';
import { customerClaims, requireCustomer } from './customer-auth.ts';
import {
  CustomerBody,
  CustomerEnvelope,
  OwnCustomerBody,
  StoreCustomerQuery,
  storeCustomerEnvelope,
} from './schema.ts';
import { createAccountCustomer, getCustomer, updateCustomer, type Customer } from './service.ts';

const tags = ['customers'];

/**
 * The signed-in customer's orders and their shape: the orders module's, wired in routes.ts
 * (orders import customers, not back).
 */
export interface CustomerOrders {
  read(ctx: Ctx, customerId: string): Promise<unknown[]>;
  schema: TSchema;
}

/**
 * `/store/customers/me` answers Medusa's `fields`: `*orders` (or `orders`, any `orders.…`) adds the
 * customer's orders, read only then; what the expression leaves out is cut by the store's
 * fields hook.
 */
export const storeCustomerRoutes =
  (orders: CustomerOrders): RouteModule =>
  (app, deps) => {
    const withOrders = async (ctx: Ctx, customer: Customer, fields: string | undefined) => {
      const asked = parseFields(fields);
      return asked.relations.has('orders') || asked.paths.has('orders')
        ? { ...customer, orders: await orders.read(ctx, customer.id) }
        : customer;
    };
    routes(app, deps, withOrders, storeCustomerEnvelope(orders.schema));
  };

function routes(
  app: App,
  deps: AppDeps,
  withOrders: (ctx: Ctx, customer: Customer, fields: string | undefined) => Promise<Customer>,
  envelope: TSchema,
) {
  const keys = tokenKeys(deps.config.jwtSecret, deps.config.jwtExpiresInSeconds, deps.config.jwtSecretPrevious);

  app.post(
    '/customers',
    {
      schema: {
        tags,
        summary:
          'Create the account of a registered login (Bearer from /auth/customer/emailpass/register, or its session)',
        body: CustomerBody,
        response: ok(CustomerEnvelope),
      },
    },
    async (req) => {
      const claims = await customerClaims(req, keys);
      if (!claims) throw errors.unauthorized('unauthorized');
      return { customer: await createAccountCustomer(req.ctx, claims, req.body) };
    },
  );

  // `me` is always the signed-in customer: no id from the request is ever used here.
  app.get(
    '/customers/me',
    {
      schema: {
        tags,
        summary: 'The signed-in customer (with its orders for `fields=*orders`)',
        querystring: StoreCustomerQuery,
        response: ok(envelope),
      },
    },
    async (req) => {
      const customer = await getCustomer(req.ctx, requireCustomer(req).id);
      return { customer: await withOrders(req.ctx, customer, req.query.fields) };
    },
  );

  app.post(
    '/customers/me',
    {
      schema: {
        tags,
        summary: 'Update the signed-in customer (not its email)',
        body: OwnCustomerBody,
        querystring: StoreCustomerQuery,
        response: ok(envelope),
      },
    },
    async (req) => {
      const customer = await updateCustomer(req.ctx, requireCustomer(req).id, req.body);
      return { customer: await withOrders(req.ctx, customer, req.query.fields) };
    },
  );
}
