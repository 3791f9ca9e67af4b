import type { FastifySchemaCompiler } from 'fastify';
import { errors } from '../../platform/http/errors.ts';
import { ok } from '../../platform/http/responses.ts';
import { IdParams } from '../../platform/http/schema-types.ts';
import type { App, AppDeps } from '../../platform/http/types.ts';
import { PAGE_CSP } from './checkout-page.ts';
import { completeStripePayment, createCheckout, getCheckout } from './checkout.ts';
import { CheckoutBody, CheckoutCreated, CheckoutSession, HtmlPage, StripeEventBody, StripeReceived, VerifyBody, VerifyResponse } from './licence-schema.ts';
import { verifyLicence } from './licences.ts';
import { paymentProvider } from './payment-provider.ts';
import { readStripeEvent } from './stripe-provider.ts';
import { payTestCheckout, renderTestCheckout } from './test-checkout.ts';

const tags = ['marketplace (federation)'];

/** The Stripe body is the raw Buffer its signature covers; the schema only documents it. */
const rawBody: FastifySchemaCompiler<unknown> = () => (data) => ({ value: data });

/**
 * Paid checkout and licences on the federation surface. Called inside the marketplace's
 * /store/marketplace scope, so these share its per-IP rate limit.
 */
export async function registerCheckoutRoutes(scope: App, deps: AppDeps): Promise<void> {
  const provider = paymentProvider(deps.config);
  if (provider.id === 'test' && deps.config.production) {
    scope.log.warn('marketplace payments use the built-in test provider (licences without payment): set STRIPE_SECRET_KEY to sell');
  }
  const signing = { encryptionKey: deps.config.encryptionKey, publicUrl: deps.config.publicUrl };

  scope.post(
    '/checkout/session',
    { schema: { tags, summary: 'Start a paid purchase: returns the hosted checkout URL (30 minutes)', body: CheckoutBody, response: ok(CheckoutCreated) } },
    async (req) => createCheckout(req.ctx, provider, req.body),
  );

  scope.get(
    '/checkout/session/:id',
    { schema: { tags, summary: 'Checkout status and, once paid, the licence key', params: IdParams, response: ok(CheckoutSession) } },
    async (req) => getCheckout(req.ctx, req.params.id),
  );

  scope.post(
    '/license/verify',
    { schema: { tags, summary: 'Verify a licence for an item and instance; valid answers carry a signed token', body: VerifyBody, response: ok(VerifyResponse) } },
    async (req) => verifyLicence(req.ctx, signing, req.body),
  );

  await scope.register(async (pages: App) => {
    // The pay button is a plain HTML form post; its (empty) fields are not needed.
    pages.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 4096 }, (_req, _body, done) => done(null, {}));
    const html = { tags, produces: ['text/html'], params: IdParams, response: ok(HtmlPage) };

    pages.get('/checkout/test/:id', { schema: { ...html, summary: 'Test provider: hosted checkout page with a pay button' } }, async (req, reply) =>
      reply.type('text/html; charset=utf-8').header('content-security-policy', PAGE_CSP).send(await renderTestCheckout(req.ctx, req.params.id)),
    );

    pages.post('/checkout/test/:id/pay', { schema: { ...html, summary: 'Test provider: pay (completes the session, shows the licence key)' } }, async (req, reply) =>
      reply.type('text/html; charset=utf-8').header('content-security-policy', PAGE_CSP).send(await payTestCheckout(req.ctx, req.params.id)),
    );
  });

  await scope.register(async (stripe: App) => {
    // The signature covers the exact bytes Stripe sent: keep them instead of parsing JSON.
    stripe.removeContentTypeParser('application/json');
    stripe.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 256 * 1024 }, (_req, body, done) => done(null, body));

    stripe.post(
      '/stripe/webhook',
      {
        schema: { tags, summary: "Stripe's signed checkout.session.completed webhook", body: StripeEventBody, response: ok(StripeReceived) },
        validatorCompiler: rawBody,
      },
      async (req) => {
        if (!deps.config.stripe) throw errors.notFound('Stripe payments are not configured on this marketplace');
        if (!Buffer.isBuffer(req.body)) throw errors.invalid('Expected the raw JSON body of a Stripe event');
        const paid = readStripeEvent(deps.config.stripe, req.body, req.headers['stripe-signature'] as string | undefined, req.ctx.clock.now());
        if (paid) await completeStripePayment(req.ctx, paid);
        return { received: true as const };
      },
    );
  });
}
