import { errors } from '../../platform/http/errors.ts';
import { ok } from '../../platform/http/responses.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import { tokenKeys } from '../auth/tokens.ts';
import { customerClaims, requireCustomer } from './customer-auth.ts';
import { CustomerBody, CustomerEnvelope, OwnCustomerBody } from './schema.ts';
import { createAccountCustomer, getCustomer, updateCustomer } from './service.ts';

const tags = ['customers'];

export const storeCustomerRoutes: RouteModule = (app, deps) => {
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
      if (!claims) throw errors.unauthorized();
      return { customer: await createAccountCustomer(req.ctx, claims, req.body) };
    },
  );

  // `me` is always the signed-in customer: no id from the request is ever used here.
  app.get(
    '/customers/me',
    { schema: { tags, summary: 'The signed-in customer', response: ok(CustomerEnvelope) } },
    async (req) => ({ customer: await getCustomer(req.ctx, requireCustomer(req).id) }),
  );

  app.post(
    '/customers/me',
    {
      schema: {
        tags,
        summary: 'Update the signed-in customer (not its email)',
        body: OwnCustomerBody,
        response: ok(CustomerEnvelope),
      },
    },
    async (req) => ({ customer: await updateCustomer(req.ctx, requireCustomer(req).id, req.body) }),
  );
};
