import { Type } from 'typebox';
import { pageOf } from '../../platform/http/pagination.ts';
import { adminResource } from '../../platform/http/permissions.ts';
import { ok } from '../../platform/http/responses.ts';
import { IdParams } from '../../platform/http/schema-types.ts';
import type { Ctx } from '../../platform/context.ts';
import { AdminCustomerWithGroups } from '../customer-groups/customer-view.ts';
import { withGroups } from '../customer-groups/service.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import { AddressBody, AddressList, AddressListQuery, CustomerAddress } from './address-schema.ts';
import { createOwnAddress, deleteOwnAddress, getOwnAddress, listOwnAddresses, updateOwnAddress } from './addresses.ts';
import { getCustomer } from './service.ts';

const tags = ['customers'];
const AddressParams = Type.Object({ id: IdParams.properties.id, address_id: IdParams.properties.id });
const AddressDeleted = Type.Object({
  id: Type.String(),
  object: Type.Literal('customer_address'),
  deleted: Type.Literal(true),
  parent: AdminCustomerWithGroups.properties.customer,
});

/** The customer with its groups and addresses, as the other admin customer routes answer it (404 when gone). */
const adminCustomer = async (ctx: Ctx, id: string) => (await withGroups(ctx, [await getCustomer(ctx, id)]))[0];

/**
 * Medusa's admin address book routes, on the store's address book (addresses.ts) with the
 * customer from the path: a customer that does not exist (or was deleted) is a 404 before
 * anything is read or written. Writes answer the customer, as Medusa's do; no event, as in the store.
 */
export const adminCustomerAddressRoutes: RouteModule = adminResource('customers', (app) => {
  app.get(
    '/customers/:id/addresses',
    {
      schema: {
        tags,
        summary: "A customer's addresses",
        params: IdParams,
        querystring: AddressListQuery,
        response: ok(AddressList),
      },
    },
    async (req) => {
      await getCustomer(req.ctx, req.params.id);
      const page = pageOf(req.query, 50);
      return { ...(await listOwnAddresses(req.ctx, req.params.id, page)), ...page };
    },
  );

  app.get(
    '/customers/:id/addresses/:address_id',
    {
      schema: {
        tags,
        summary: 'One of a customer’s addresses',
        params: AddressParams,
        querystring: Type.Object({ fields: Type.Optional(Type.String({ maxLength: 2000 })) }),
        response: ok(Type.Object({ address: CustomerAddress })),
      },
    },
    async (req) => {
      await getCustomer(req.ctx, req.params.id);
      return { address: await getOwnAddress(req.ctx, req.params.id, req.params.address_id) };
    },
  );

  app.post(
    '/customers/:id/addresses',
    {
      schema: {
        tags,
        summary: 'Add an address to a customer (a new default replaces the old one)',
        params: IdParams,
        body: AddressBody,
        response: ok(AdminCustomerWithGroups),
      },
    },
    async (req) => {
      await getCustomer(req.ctx, req.params.id);
      await createOwnAddress(req.ctx, req.params.id, req.body);
      return { customer: await adminCustomer(req.ctx, req.params.id) };
    },
  );

  app.post(
    '/customers/:id/addresses/:address_id',
    {
      schema: {
        tags,
        summary: 'Change one of a customer’s addresses',
        params: AddressParams,
        body: AddressBody,
        response: ok(AdminCustomerWithGroups),
      },
    },
    async (req) => {
      await getCustomer(req.ctx, req.params.id);
      await updateOwnAddress(req.ctx, req.params.id, req.params.address_id, req.body);
      return { customer: await adminCustomer(req.ctx, req.params.id) };
    },
  );

  app.delete(
    '/customers/:id/addresses/:address_id',
    {
      schema: {
        tags,
        summary: 'Delete one of a customer’s addresses',
        params: AddressParams,
        response: ok(AddressDeleted),
      },
    },
    async (req) => {
      await getCustomer(req.ctx, req.params.id);
      await deleteOwnAddress(req.ctx, req.params.id, req.params.address_id);
      const parent = await adminCustomer(req.ctx, req.params.id);
      return { id: req.params.address_id, object: 'customer_address' as const, deleted: true as const, parent };
    },
  );
});
