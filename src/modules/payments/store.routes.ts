import { ok } from '../../platform/http/responses.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import { Type } from 'typebox';
import { listEnvelope, pageOf, pageQuery } from '../../platform/http/pagination.ts';
import { Nullable } from '../../platform/http/schema-types.ts';
import { PaymentProviderList, PaymentProvidersQuery } from './schema.ts';
import { listAllPaymentProviders, listPaymentProviders } from './providers.ts';
import { adminResource } from '../../platform/http/permissions.ts';

const tags = ['payments'];

export const storePaymentProviderRoutes: RouteModule = (app) => {
  app.get(
    '/payment-providers',
    {
      schema: {
        tags,
        summary: 'Payment providers of a region',
        querystring: PaymentProvidersQuery,
        response: ok(PaymentProviderList),
      },
    },
    async (req) => listPaymentProviders(req.ctx, req.query.region_id, pageOf(req.query), req.server.providers),
  );
};

const AdminProviderList = listEnvelope(
  'payment_providers',
  Type.Object({ id: Type.String(), is_enabled: Type.Boolean(), name: Type.String(), plugin: Nullable(Type.String()) }),
);

export const adminPaymentProviderRoutes: RouteModule = adminResource('settings', (app) => {
  app.get(
    '/payments/payment-providers',
    {
      schema: {
        tags,
        summary: 'Payment providers running in the shop (the built-in one and those of plugins)',
        querystring: Type.Object(pageQuery(20)),
        response: ok(AdminProviderList),
      },
    },
    async (req) => listAllPaymentProviders(req.server.providers, pageOf(req.query)),
  );
});
