import { emptyBodyIsObject } from '../../../platform/http/body.ts';
import { ok } from '../../../platform/http/responses.ts';
import { IdParams } from '../../../platform/http/schema-types.ts';
import type { App, AppDeps } from '../../../platform/http/types.ts';
import { actingNamespaces, selfVendorId } from '../vendors/lookup.ts';
import { listCheckouts } from './checkout.ts';
import { CheckoutSessionList, CheckoutSessionsQuery } from './schema.ts';
import { stripeMoney } from './stripe-money.ts';
import { SubscriptionEnvelope, SubscriptionList, SubscriptionsQuery } from './subscription-schema.ts';
import { cancelSubscription, listSubscriptions } from './subscriptions.ts';

const tags = ['marketplace (vendor)'];
const selfTags = ['marketplace (vendor self)'];

/** The vendor's view of purchases and subscriptions, inside /admin/marketplace (marketplace role). */
export function registerSalesAdminRoutes(scope: App, deps: AppDeps): void {
  const money = deps.config.stripe ? stripeMoney(deps.config.stripe) : null;
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

  scope.get(
    '/subscriptions',
    {
      schema: {
        tags,
        summary: 'Subscriptions (recurring licences), newest first',
        querystring: SubscriptionsQuery,
        response: ok(SubscriptionList),
      },
    },
    async (req) => listSubscriptions(req.ctx, null, req.query),
  );
  scope.post(
    '/subscriptions/:id/cancel',
    {
      schema: {
        tags,
        summary: "Cancel at the period's end: no more renewals, the licence runs to what was paid",
        params: IdParams,
        response: ok(SubscriptionEnvelope),
      },
      preValidation: emptyBodyIsObject,
    },
    async (req) => ({
      subscription: await cancelSubscription(req.ctx, money, req.params.id, null, 'operator'),
    }),
  );

  scope.get(
    '/vendor/subscriptions',
    {
      config: { vendorScope: 'read' },
      schema: {
        tags: selfTags,
        summary: "Subscriptions to the acting vendor's items",
        querystring: SubscriptionsQuery,
        response: ok(SubscriptionList),
      },
    },
    async (req) => {
      selfVendorId(req.ctx, '/admin/marketplace/subscriptions');
      return listSubscriptions(req.ctx, await actingNamespaces(req.ctx), req.query);
    },
  );
  scope.post(
    '/vendor/subscriptions/:id/cancel',
    {
      config: { vendorScope: 'publish' },
      schema: {
        tags: selfTags,
        summary: 'Cancel a subscription to one of its items at the period end',
        params: IdParams,
        response: ok(SubscriptionEnvelope),
      },
      preValidation: emptyBodyIsObject,
    },
    async (req) => {
      const vendorId = selfVendorId(req.ctx, '/admin/marketplace/subscriptions/{id}/cancel');
      const owned = await actingNamespaces(req.ctx);
      return { subscription: await cancelSubscription(req.ctx, money, req.params.id, owned, vendorId) };
    },
  );
}
