import { deleteByIdRoute } from '../../platform/http/delete-route.ts';
import { pageOf } from '../../platform/http/pagination.ts';
import { ok } from '../../platform/http/responses.ts';
import { IdParams } from '../../platform/http/schema-types.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import { searchListEnvelope } from '../../platform/http/pagination.ts';
import { AdminCustomer, AdminCustomerWithGroups } from '../customer-groups/customer-view.ts';
import { withGroups } from '../customer-groups/service.ts';
import { AdminCustomerQuery, CustomerBody } from './schema.ts';
import { createCustomer, deleteCustomer, getCustomer, listCustomers, updateCustomer } from './service.ts';
import { adminResource } from '../../platform/http/permissions.ts';

const tags = ['customers'];
// The admin sees each customer's groups (Medusa's `groups`), read for a whole page at once.
const CustomerEnvelope = AdminCustomerWithGroups;
const CustomerList = searchListEnvelope('customers', AdminCustomer);
const one = async <C extends { id: string }>(req: { ctx: Parameters<typeof withGroups>[0] }, customer: C) =>
  (await withGroups(req.ctx, [customer]))[0];

export const adminCustomerRoutes: RouteModule = adminResource('customers', (app) => {
  app.get(
    '/customers',
    { schema: { tags, summary: 'List customers', querystring: AdminCustomerQuery, response: ok(CustomerList) } },
    async (req) => {
      const page = pageOf(req.query, 50);
      const { customers, ...counted } = await listCustomers(req.ctx, req.query, page);
      return { customers: await withGroups(req.ctx, customers), ...counted, ...page };
    },
  );

  app.get(
    '/customers/:id',
    { schema: { tags, summary: 'Get a customer', params: IdParams, response: ok(CustomerEnvelope) } },
    async (req) => ({ customer: await one(req, await getCustomer(req.ctx, req.params.id)) }),
  );

  app.post(
    '/customers',
    {
      schema: {
        tags,
        summary: 'Create a customer (without an account)',
        body: CustomerBody,
        response: ok(CustomerEnvelope),
      },
    },
    async (req) => ({ customer: await one(req, await createCustomer(req.ctx, req.body)) }),
  );

  const updateSchema = {
    tags,
    summary: 'Update a customer',
    params: IdParams,
    body: CustomerBody,
    response: ok(CustomerEnvelope),
  };
  for (const method of ['POST', 'PATCH'] as const) {
    app.route({
      method,
      url: '/customers/:id',
      schema: updateSchema,
      handler: async (req) => ({ customer: await one(req, await updateCustomer(req.ctx, req.params.id, req.body)) }),
    });
  }

  deleteByIdRoute(app, '/customers/:id', {
    tags,
    summary: 'Delete a customer (its login may sign up again)',
    object: 'customer',
    remove: (req) => deleteCustomer(req.ctx, req.params.id),
  });
});
