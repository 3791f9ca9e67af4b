import { ok } from '../../../platform/http/responses.ts';
import type { App } from '../../../platform/http/types.ts';
import { listCheckouts } from './checkout.ts';
import { CheckoutSessionList, CheckoutSessionsQuery } from './schema.ts';

const tags = ['marketplace (vendor)'];

/** The vendor's view of purchases, inside /admin/marketplace (marketplace role). */
export function registerSalesAdminRoutes(scope: App): void {
  scope.get(
    '/checkout-sessions',
    {
      schema: {
        tags,
        summary: 'Checkout sessions (purchases, paid or not), newest first',
        querystring: CheckoutSessionsQuery,
        response: ok(CheckoutSessionList),
      },
    },
    async (req) => listCheckouts(req.ctx, req.query),
  );
}
