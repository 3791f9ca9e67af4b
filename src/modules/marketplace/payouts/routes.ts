import { emptyBodyIsObject } from '../../../platform/http/body.ts';
import { ok } from '../../../platform/http/responses.ts';
import { IdParams } from '../../../platform/http/schema-types.ts';
import type { App, AppDeps } from '../../../platform/http/types.ts';
import { stripeMoney } from '../sales/stripe-money.ts';
import { selfVendorId } from '../vendors/lookup.ts';
import { ledger, listSales } from './ledger.ts';
import { refundSale, runPayouts } from './payouts.ts';
import { scheduledRuns } from './payout-job.ts';
import { Ledger, LedgerQuery, PayoutRunList, PayoutRunResult, SaleEnvelope, SaleList, SalesQuery } from './schema.ts';

const tags = ['marketplace (payouts)'];
const selfTags = ['marketplace (vendor self)'];

/** The sales ledger and vendor payouts, inside /admin/marketplace: the operator's desk and each vendor's own view. */
export function registerPayoutRoutes(scope: App, deps: AppDeps): void {
  const money = deps.config.stripe ? stripeMoney(deps.config.stripe) : null;
  scope.get(
    '/sales',
    {
      schema: {
        tags,
        summary: 'The sales ledger: sales and refunds with their split and payout, newest first',
        querystring: SalesQuery,
        response: ok(SaleList),
      },
    },
    async (req) => listSales(req.ctx, req.query.vendor_id, req.query),
  );
  scope.post(
    '/sales/:id/refund',
    {
      schema: {
        tags,
        summary: "Refund a sale in full: the provider refunds, the vendor's share is reversed",
        params: IdParams,
        response: ok(SaleEnvelope),
      },
      preValidation: emptyBodyIsObject,
    },
    async (req) => ({ sale: await refundSale(req.ctx, money, req.params.id) }),
  );
  scope.get(
    '/payouts',
    {
      schema: {
        tags,
        summary: 'The payouts ledger per vendor: sales, refunds, commission, paid out, owed',
        querystring: LedgerQuery,
        response: ok(Ledger),
      },
    },
    async (req) => ledger(req.ctx, req.query.vendor_id),
  );
  scope.post(
    '/payouts/run',
    {
      schema: {
        tags,
        summary: "Transfer every owed vendor share to the vendor's Stripe account (and reverse refunded ones)",
        response: ok(PayoutRunResult),
      },
      preValidation: emptyBodyIsObject,
    },
    async (req) => runPayouts(req.ctx, money),
  );
  scope.get(
    '/payouts/runs',
    {
      schema: {
        tags,
        summary: 'The scheduled payout runs (MARKETPLACE_PAYOUT_EVERY), one per period: who ran it, when, what it did',
        response: ok(PayoutRunList),
      },
    },
    async (req) => ({ runs: await scheduledRuns(req.ctx) }),
  );

  scope.get(
    '/vendor/sales',
    {
      config: { vendorScope: 'read' },
      schema: {
        tags: selfTags,
        summary: "The acting vendor's sales and refunds",
        querystring: SalesQuery,
        response: ok(SaleList),
      },
    },
    async (req) => listSales(req.ctx, selfVendorId(req.ctx, '/admin/marketplace/sales'), req.query),
  );
  scope.get(
    '/vendor/payouts',
    {
      config: { vendorScope: 'read' },
      schema: { tags: selfTags, summary: "The acting vendor's payouts ledger", response: ok(Ledger) },
    },
    async (req) => ledger(req.ctx, selfVendorId(req.ctx, '/admin/marketplace/payouts')),
  );
}
