import { Type } from 'typebox';
import { emptyBodyIsObject } from '../../platform/http/body.ts';
import { deletedEnvelope } from '../../platform/http/pagination.ts';
import { adminResource } from '../../platform/http/permissions.ts';
import { ok } from '../../platform/http/responses.ts';
import { IdParams } from '../../platform/http/schema-types.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import { currencyOfRow } from '../../platform/money/currency-lookup.ts';
import { Money } from '../../platform/money/schema.ts';
import { AdminPaymentCollection } from '../payments/ledger-schema.ts';
import { CreatePaymentSessionBody } from '../payments/schema.ts';
import { AdminOrder } from './desk-schema.ts';
import {
  authorizeDifference,
  authorizeOrderSession,
  cancelOrderCollection,
  createOrderCollection,
  markCollectionPaid,
  OPERATOR,
  startDifferenceSession,
} from './difference-collections.ts';

const tags = ['payments'];
const Envelope = Type.Object({ payment_collection: AdminPaymentCollection });
const OrderId = Type.String({ minLength: 1, maxLength: 200 });

/** Medusa's `/admin/payment-collections`: an order's difference to pay after the sale. */
export const adminDifferenceCollectionRoutes: RouteModule = adminResource('orders', (app) => {
  app.post(
    '/payment-collections',
    {
      schema: {
        tags,
        summary: 'Open a payment collection for what an order still owes (at most its pending difference)',
        body: Type.Object(
          { order_id: OrderId, amount: Money({ exclusiveMinimum: 0 }) },
          { additionalProperties: false },
        ),
        response: ok(Envelope),
      },
      config: { moneyCurrency: currencyOfRow('orders', (req) => (req.body as { order_id?: string }).order_id) },
    },
    async (req) => ({ payment_collection: await createOrderCollection(req.ctx, req.body) }),
  );
  app.post(
    '/payment-collections/:id/mark-as-paid',
    {
      schema: {
        tags,
        summary: 'Mark an unpaid collection paid (a manual payment, captured at once)',
        params: IdParams,
        body: Type.Object({ order_id: OrderId }, { additionalProperties: false }),
        response: ok(Envelope),
      },
    },
    async (req) => ({ payment_collection: await markCollectionPaid(req.ctx, req.params.id, req.body.order_id) }),
  );
  app.post(
    '/payment-collections/:id/payment-sessions',
    {
      schema: {
        tags,
        summary: "Start a payment session on an order's collection for the shopper (replaces one not authorized)",
        params: IdParams,
        body: CreatePaymentSessionBody,
        response: ok(Envelope),
      },
    },
    async (req) => ({
      payment_collection: await startDifferenceSession(
        req.ctx,
        req.params.id,
        req.body,
        OPERATOR,
        req.server.providers,
      ),
    }),
  );
  app.post(
    '/orders/:id/payment-sessions/authorize',
    {
      schema: {
        tags,
        summary: "Have the provider check again a session of the order's collection waiting for authorization",
        params: IdParams,
        body: Type.Object(
          { payment_session_id: Type.String({ minLength: 1, maxLength: 200 }) },
          { additionalProperties: false },
        ),
        response: ok(Type.Object({ order: AdminOrder, is_authorized: Type.Boolean() })),
      },
    },
    async (req) => authorizeOrderSession(req.ctx, req.params.id, req.body.payment_session_id, req.server.providers),
  );
  app.delete(
    '/payment-collections/:id',
    {
      schema: {
        tags,
        summary: 'Cancel an unpaid collection',
        params: IdParams,
        response: ok(deletedEnvelope('payment-collection')),
      },
    },
    async (req) => {
      await cancelOrderCollection(req.ctx, req.params.id);
      return { id: req.params.id, object: 'payment-collection', deleted: true as const };
    },
  );
});

/** The shopper pays an order's difference: a session of a provider, then its authorization. */
export const storeDifferenceCollectionRoutes: RouteModule = (app) => {
  app.post(
    '/payment-collections/:id/authorize',
    {
      schema: {
        tags,
        summary: "Authorize the payment of an order's difference with its payment session",
        params: IdParams,
        body: Type.Object({}, { additionalProperties: false }),
        response: ok(Envelope),
      },
      preValidation: emptyBodyIsObject,
    },
    async (req) => ({
      payment_collection: await authorizeDifference(
        req.ctx,
        req.params.id,
        req.customer?.id ?? null,
        req.server.providers,
      ),
    }),
  );
};
