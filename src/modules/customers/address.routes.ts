import { Type } from 'typebox';
import { pageOf } from '../../platform/http/pagination.ts';
import { ok } from '../../platform/http/responses.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import { AddressBody, AddressList, AddressListQuery, AddressParams, CustomerAddress } from './address-schema.ts';
import { createOwnAddress, deleteOwnAddress, getOwnAddress, listOwnAddresses, updateOwnAddress } from './addresses.ts';
import { requireCustomer } from './customer-auth.ts';
import { Customer, CustomerEnvelope } from './schema.ts';
import { getCustomer } from './service.ts';

const tags = ['customers'];

const AddressDeleted = Type.Object({
  id: Type.String(),
  object: Type.Literal('customer_address'),
  deleted: Type.Literal(true),
  parent: Customer,
});

/** Medusa's address book routes; writes answer the whole customer, as Medusa's do. Always the signed-in customer's. */
export const storeAddressRoutes: RouteModule = (app) => {
  app.get(
    '/customers/me/addresses',
    {
      schema: { tags, summary: "The customer's addresses", querystring: AddressListQuery, response: ok(AddressList) },
    },
    async (req) => {
      const page = pageOf(req.query, 50);
      return { ...(await listOwnAddresses(req.ctx, requireCustomer(req).id, page)), ...page };
    },
  );

  app.get(
    '/customers/me/addresses/:address_id',
    {
      schema: {
        tags,
        summary: 'One of the customer’s addresses',
        params: AddressParams,
        response: ok(Type.Object({ address: CustomerAddress })),
      },
    },
    async (req) => ({ address: await getOwnAddress(req.ctx, requireCustomer(req).id, req.params.address_id) }),
  );

  app.post(
    '/customers/me/addresses',
    {
      schema: {
        tags,
        summary: 'Add an address (a new default replaces the old one)',
        body: AddressBody,
        response: ok(CustomerEnvelope),
      },
    },
    async (req) => {
      const { id } = requireCustomer(req);
      await createOwnAddress(req.ctx, id, req.body);
      return { customer: await getCustomer(req.ctx, id) };
    },
  );

  app.post(
    '/customers/me/addresses/:address_id',
    {
      schema: {
        tags,
        summary: 'Change an address',
        params: AddressParams,
        body: AddressBody,
        response: ok(CustomerEnvelope),
      },
    },
    async (req) => {
      const { id } = requireCustomer(req);
      await updateOwnAddress(req.ctx, id, req.params.address_id, req.body);
      return { customer: await getCustomer(req.ctx, id) };
    },
  );

  app.delete(
    '/customers/me/addresses/:address_id',
    { schema: { tags, summary: 'Delete an address', params: AddressParams, response: ok(AddressDeleted) } },
    async (req) => {
      const { id } = requireCustomer(req);
      await deleteOwnAddress(req.ctx, id, req.params.address_id);
      const parent = await getCustomer(req.ctx, id);
      return { id: req.params.address_id, object: 'customer_address' as const, deleted: true as const, parent };
    },
  );
};
