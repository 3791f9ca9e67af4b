import { deleteByIdRoute } from '../../platform/http/delete-route.ts';
import { pageOf } from '../../platform/http/pagination.ts';
import { ok } from '../../platform/http/responses.ts';
import { IdParams } from '../../platform/http/schema-types.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import { getCustomer } from '../customers/service.ts';
import { AdminCustomerWithGroups } from './customer-view.ts';
import {
  CreateGroupBody,
  CustomerGroupEnvelope,
  CustomerGroupList,
  GroupGetQuery,
  GroupQuery,
  LinkBody,
  UpdateGroupBody,
} from './schema.ts';
import {
  createGroup,
  deleteGroup,
  getGroup,
  linkCustomers,
  linkGroups,
  listGroups,
  updateGroup,
  withGroups,
} from './service.ts';
import { adminResource } from '../../platform/http/permissions.ts';

const tags = ['customer groups'];

export const adminCustomerGroupRoutes: RouteModule = adminResource('customers', (app) => {
  app.get(
    '/customer-groups',
    { schema: { tags, summary: 'List customer groups', querystring: GroupQuery, response: ok(CustomerGroupList) } },
    async (req) => listGroups(req.ctx, req.query, pageOf(req.query, 50)),
  );

  app.get(
    '/customer-groups/:id',
    {
      schema: {
        tags,
        summary: 'Get a customer group',
        params: IdParams,
        querystring: GroupGetQuery,
        response: ok(CustomerGroupEnvelope),
      },
    },
    async (req) => ({ customer_group: await getGroup(req.ctx, req.params.id) }),
  );

  app.post(
    '/customer-groups',
    {
      schema: {
        tags,
        summary: 'Create a customer group',
        body: CreateGroupBody,
        response: ok(CustomerGroupEnvelope),
      },
    },
    async (req) => ({ customer_group: await createGroup(req.ctx, req.body) }),
  );

  app.post(
    '/customer-groups/:id',
    {
      schema: {
        tags,
        summary: 'Update a customer group',
        params: IdParams,
        body: UpdateGroupBody,
        response: ok(CustomerGroupEnvelope),
      },
    },
    async (req) => ({ customer_group: await updateGroup(req.ctx, req.params.id, req.body) }),
  );

  deleteByIdRoute(app, '/customer-groups/:id', {
    tags,
    summary: 'Delete a customer group (soft); its customers leave it',
    object: 'customer_group',
    remove: (req) => deleteGroup(req.ctx, req.params.id),
  });

  app.post(
    '/customer-groups/:id/customers',
    {
      schema: {
        tags,
        summary: 'Add customers to and remove them from a customer group',
        params: IdParams,
        body: LinkBody,
        response: ok(CustomerGroupEnvelope),
      },
    },
    async (req) => ({ customer_group: await linkCustomers(req.ctx, req.params.id, req.body) }),
  );

  app.post(
    '/customers/:id/customer-groups',
    {
      schema: {
        tags,
        summary: 'Add a customer to and remove it from customer groups',
        params: IdParams,
        body: LinkBody,
        response: ok(AdminCustomerWithGroups),
      },
    },
    async (req) => {
      await linkGroups(req.ctx, req.params.id, req.body);
      const [customer] = await withGroups(req.ctx, [await getCustomer(req.ctx, req.params.id)]);
      return { customer };
    },
  );
});
