import type { FastifyRequest } from 'fastify';
import { errors } from '../../platform/http/errors.ts';
import { ok } from '../../platform/http/responses.ts';
import type { App, RouteModule } from '../../platform/http/types.ts';
import type { PluginsCtx } from '../plugins/service.ts';
import { verifyMarketplaceCallback } from './callback-verify.ts';
import {
  cancelPluginSubscription,
  installPurchase,
  pollPaidCheckout,
  requireClient,
  startPaidCheckout,
} from './paid.ts';
import {
  CancelledSubscription,
  CancelSubscriptionBody,
  CheckoutIdParams,
  LicenseIssuedBody,
  LicenseIssuedReceived,
  PaidCheckoutBody,
  PaidCheckoutCreated,
  PaidCheckoutPolled,
} from './schema.ts';
import { adminResource, PUBLIC } from '../../platform/http/permissions.ts';

const tags = ['marketplace (shop)'];

const pctx = (app: App, req: FastifyRequest): PluginsCtx => ({ ...req.ctx, plugins: app.plugins });
const header = (req: FastifyRequest, name: string) => {
  const v = req.headers[name];
  return typeof v === 'string' ? v : undefined;
};

/** Buying a paid plugin from the shop's admin: checkout, the signed callback, and the poll fallback. */
export const adminPaidPluginRoutes: RouteModule = adminResource('marketplace', async (app, deps) => {
  app.post(
    '/marketplace/checkout',
    {
      schema: {
        tags,
        summary: "Start buying a paid plugin: the marketplace's checkout URL",
        body: PaidCheckoutBody,
        response: ok(PaidCheckoutCreated),
      },
    },
    async (req) => startPaidCheckout(pctx(app, req), deps.config, req.body),
  );

  app.get(
    '/marketplace/checkout/:id',
    {
      schema: {
        tags,
        summary: 'Poll a checkout; once paid, installs the plugin with its license (idempotent)',
        params: CheckoutIdParams,
        response: ok(PaidCheckoutPolled),
      },
    },
    async (req) => pollPaidCheckout(pctx(app, req), deps.config, req.params.id),
  );

  app.post(
    '/marketplace/subscription/cancel',
    {
      schema: {
        tags,
        summary: "Cancel the marketplace subscription of a licensed plugin: it runs to the paid period's end",
        body: CancelSubscriptionBody,
        response: ok(CancelledSubscription),
      },
    },
    async (req) => cancelPluginSubscription(pctx(app, req), deps.config, req.body.plugin_id),
  );

  await app.register(async (scope: App) => {
    // The signature covers the exact bytes sent: keep the raw text, parse only once it verified.
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 16 * 1024 }, (_req, body, done) =>
      done(null, body),
    );
    scope.addHook('preValidation', async (req) => {
      if (typeof req.body !== 'string') throw errors.unauthorized('unauthorized');
      await verifyMarketplaceCallback(req.ctx, requireClient(deps.config), {
        signature: header(req, 'x-service-signature'),
        deliveryId: header(req, 'x-service-delivery-id'),
        keyId: header(req, 'x-service-key-id'),
        rawBody: req.body,
      });
      try {
        req.body = JSON.parse(req.body);
      } catch {
        throw errors.invalid('federation_callback_not_json');
      }
    });
    // Exempt from the admin JWT guard (auth/admin-guard.ts): the marketplace's signature is its credential.
    scope.post(
      '/marketplace/license-issued',
      {
        schema: {
          tags,
          summary:
            'Marketplace callback after a purchase (signed X-Service-Signature, no admin token): installs with the license',
          body: LicenseIssuedBody,
          response: ok(LicenseIssuedReceived),
        },
        config: { permission: PUBLIC },
      },
      async (req) => ({ received: true as const, plugin_id: await installPurchase(pctx(app, req), req.body) }),
    );
  });
});
