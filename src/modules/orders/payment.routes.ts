import { emptyBodyIsObject } from '../../platform/http/body.ts';
import { currencyOfRow, paramId } from '../../platform/money/currency-lookup.ts';
import { pageOf } from '../../platform/http/pagination.ts';
import { ok } from '../../platform/http/responses.ts';
import { IdParams } from '../../platform/http/schema-types.ts';
import type { RouteModule } from '../../platform/http/types.ts';
import { getPayment, listPayments } from '../payments/ledger.ts';
import {
  AdminPaymentEnvelope,
  AdminPaymentList,
  AdminPaymentQuery,
  CaptureBody,
  PaymentRefundBody,
} from '../payments/ledger-schema.ts';
import { capturePayment, refundPayment } from './payment-actions.ts';
import { adminResource } from '../../platform/http/permissions.ts';

const tags = ['payments'];
const list = (v: string | string[] | undefined) => (v === undefined ? undefined : [v].flat());

/** Medusa's admin payment routes. Capture and refund go through the order desk (they lock the order). */
export const adminPaymentRoutes: RouteModule = adminResource('orders', (app) => {
  app.get(
    '/payments',
    {
      schema: {
        tags,
        summary: 'List payments with their captures and refunds',
        querystring: AdminPaymentQuery,
        response: ok(AdminPaymentList),
      },
    },
    async (req) => {
      const page = pageOf(req.query);
      const filters = {
        id: list(req.query.id),
        order_id: list(req.query.order_id),
        payment_session_id: list(req.query.payment_session_id),
      };
      return { ...(await listPayments(req.ctx, filters, page)), ...page };
    },
  );

  app.get(
    '/payments/:id',
    {
      schema: {
        tags,
        summary: 'A payment with its captures and refunds',
        params: IdParams,
        response: ok(AdminPaymentEnvelope),
      },
    },
    async (req) => ({ payment: await getPayment(req.ctx, req.params.id) }),
  );

  app.post(
    '/payments/:id/capture',
    {
      schema: {
        tags,
        summary: 'Capture (part of) an authorized payment',
        params: IdParams,
        body: CaptureBody,
        response: ok(AdminPaymentEnvelope),
      },
      config: { moneyCurrency: currencyOfRow('payments', paramId) },
      preValidation: emptyBodyIsObject,
    },
    async (req) => ({ payment: await capturePayment(req.ctx, req.params.id, req.body.amount, req.server.providers) }),
  );

  app.post(
    '/payments/:id/refund',
    {
      schema: {
        tags,
        summary: 'Refund (part of) what was captured',
        params: IdParams,
        body: PaymentRefundBody,
        response: ok(AdminPaymentEnvelope),
      },
      config: { moneyCurrency: currencyOfRow('payments', paramId), action: 'refund' },
      preValidation: emptyBodyIsObject,
    },
    async (req) => ({ payment: await refundPayment(req.ctx, req.params.id, req.body, req.server.providers) }),
  );
});
