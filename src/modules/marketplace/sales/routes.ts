import type { FastifySchemaCompiler } from 'fastify';
import { errors } from '../../../platform/http/errors.ts';
import { ok } from '../../../platform/http/responses.ts';
import { IdParams } from '../../../platform/http/schema-types.ts';
import type { App, AppDeps } from '../../../platform/http/types.ts';
import { createCheckout, getCheckout } from './checkout.ts';
import { onStripeNotice } from './stripe-events.ts';
import { stripeMoney } from './stripe-money.ts';
import { SubscriptionEnvelope } from './subscription-schema.ts';
import { cancelFromShop } from './subscriptions.ts';
import { VerifyBody } from '../licenses/schema.ts';
import type { PaymentProvider } from './payment-provider.ts';
import { CheckoutBody, CheckoutCreated, CheckoutSession, HtmlPage, StripeEventBody, StripeReceived } from './schema.ts';
import { readStripeEvent, stripeProvider } from './stripe-provider.ts';
import { PAGE_CSP } from './test-payment-page.ts';
import { payTestCheckout, renderTestCheckout, testPaymentProvider } from './test-payment-provider.ts';

const tags = ['marketplace (federation)'];

/** The Stripe body is the raw Buffer its signature covers; the schema only documents it. */
const rawBody: FastifySchemaCompiler<unknown> = () => (data) => ({ value: data });

/**
 * Paid checkout on the federation surface: the session, the test provider's hosted pages and
 * Stripe's webhook. Called inside the marketplace's /store/marketplace scope, so these share its
 * per-IP rate limit.
 */
export async function registerSalesRoutes(scope: App, deps: AppDeps): Promise<void> {
  // Stripe Checkout when STRIPE_SECRET_KEY is set, the built-in test provider otherwise.
  const { stripe, publicUrl } = deps.config;
  const provider: PaymentProvider = stripe ? stripeProvider(stripe, publicUrl) : testPaymentProvider(publicUrl);
  if (provider.id === 'test' && deps.config.production) {
    scope.log.warn(
      'marketplace payments use the built-in test provider (licenses without payment): set STRIPE_SECRET_KEY to sell',
    );
  }

  scope.post(
    '/checkout/session',
    {
      schema: {
        tags,
        summary: 'Start a paid purchase: returns the hosted checkout URL (30 minutes)',
        body: CheckoutBody,
        response: ok(CheckoutCreated),
      },
    },
    async (req) => createCheckout(req.ctx, provider, req.body),
  );

  scope.get(
    '/checkout/session/:id',
    {
      schema: {
        tags,
        summary: 'Checkout status and, once paid, the license key',
        params: IdParams,
        response: ok(CheckoutSession),
      },
    },
    async (req) => getCheckout(req.ctx, req.params.id),
  );

  const money = stripe ? stripeMoney(stripe) : null;
  scope.post(
    '/subscriptions/cancel',
    {
      schema: {
        tags,
        summary: "The shop cancels its subscription (licence key and instance token): it runs to the period's end",
        body: VerifyBody,
        response: ok(SubscriptionEnvelope),
      },
    },
    async (req) => ({ subscription: await cancelFromShop(req.ctx, money, req.body) }),
  );

  await scope.register(async (pages: App) => {
    // The pay button is a plain HTML form post; its (empty) fields are not needed.
    pages.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 4096 },
      (_req, _body, done) => done(null, {}),
    );
    const html = { tags, produces: ['text/html'], params: IdParams, response: ok(HtmlPage) };

    pages.get(
      '/checkout/test/:id',
      { schema: { ...html, summary: 'Test provider: hosted checkout page with a pay button' } },
      async (req, reply) =>
        reply
          .type('text/html; charset=utf-8')
          .header('content-security-policy', PAGE_CSP)
          .send(await renderTestCheckout(req.ctx, req.params.id)),
    );

    pages.post(
      '/checkout/test/:id/pay',
      { schema: { ...html, summary: 'Test provider: pay (completes the session, shows the license key)' } },
      async (req, reply) =>
        reply
          .type('text/html; charset=utf-8')
          .header('content-security-policy', PAGE_CSP)
          .send(await payTestCheckout(req.ctx, req.params.id)),
    );
  });

  await scope.register(async (stripe: App) => {
    // The signature covers the exact bytes Stripe sent: keep them instead of parsing JSON.
    stripe.removeContentTypeParser('application/json');
    stripe.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 256 * 1024 }, (_req, body, done) =>
      done(null, body),
    );

    stripe.post(
      '/stripe/webhook',
      {
        schema: {
          tags,
          summary: "Stripe's signed webhook: checkout completions, subscription invoices and changes",
          body: StripeEventBody,
          response: ok(StripeReceived),
        },
        validatorCompiler: rawBody,
      },
      async (req) => {
        if (!deps.config.stripe) throw errors.notFound('marketplace_stripe_not_configured');
        if (!Buffer.isBuffer(req.body)) throw errors.invalid('marketplace_stripe_body_not_raw');
        const notice = readStripeEvent(
          deps.config.stripe,
          req.body,
          req.headers['stripe-signature'] as string | undefined,
          req.ctx.clock.now(),
        );
        if (notice) await onStripeNotice(req.ctx, notice);
        return { received: true as const };
      },
    );
  });
}
