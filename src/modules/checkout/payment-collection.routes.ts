import { ok } from '../../platform/http/responses.ts';
import { IdParams } from '../../platform/http/schema-types.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import { cartAccess } from '../carts/access.ts';
import {
  CreatePaymentCollectionBody,
  CreatePaymentSessionBody,
  PaymentCollectionEnvelope,
} from '../payments/schema.ts';
import { createPaymentCollection, createPaymentSession } from './payment-collections.ts';

const tags = ['payments'];

export const storePaymentCollectionRoutes: RouteModule = (app) => {
  app.post(
    '/payment-collections',
    {
      schema: {
        tags,
        summary: 'The payment collection of a cart (created on first call)',
        body: CreatePaymentCollectionBody,
        response: ok(PaymentCollectionEnvelope),
      },
    },
    async (req) => ({ payment_collection: await createPaymentCollection(req.ctx, req.body.cart_id, cartAccess(req)) }),
  );

  app.post(
    '/payment-collections/:id/payment-sessions',
    {
      schema: {
        tags,
        summary: 'Start a payment session (replaces earlier ones)',
        params: IdParams,
        body: CreatePaymentSessionBody,
        response: ok(PaymentCollectionEnvelope),
      },
    },
    async (req) => ({
      payment_collection: await createPaymentSession(
        req.ctx,
        req.params.id,
        req.body,
        cartAccess(req),
        req.server.providers,
      ),
    }),
  );
};
