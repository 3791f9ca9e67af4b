import { Type } from 'typebox';
import type { FastifySchemaCompiler } from 'fastify';
import { errors } from '../../platform/http/errors.ts';
import { ok } from '../../platform/http/responses.ts';
import { validatorCompiler } from '../../platform/http/validator.ts';
import type { App, RouteModule } from '../../platform/http/types.ts';
import { receivePaymentWebhook } from './payment-webhooks.ts';

const tags = ['payments'];
/** The body is the raw bytes the processor signed (its schema only documents it); params are validated as usual. */
const rawBody: FastifySchemaCompiler<unknown> = (route) =>
  route.httpPart === 'body' ? (data) => ({ value: data }) : validatorCompiler(route);
const Received = Type.Object({ received: Type.Literal(true) });

/** One webhook route at `url`, in a scope that keeps bodies of any content type as raw bytes. */
async function webhookRoute(scope: App, url: string, param: 'provider' | 'provider_id'): Promise<void> {
  await scope.register(async (hooks: App) => {
    hooks.removeAllContentTypeParsers();
    hooks.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 512 * 1024 }, (_req, body, done) =>
      done(null, body),
    );
    hooks.post(
      url,
      {
        schema: {
          tags,
          summary: 'A payment processor reports a payment event (verified and applied by its provider plugin)',
          params: Type.Object({ [param]: Type.String({ minLength: 1, maxLength: 100, pattern: '^[a-z0-9_-]+$' }) }),
          body: Type.Unknown({ description: 'the processor’s signed body, as sent' }),
          response: ok(Received),
        },
        validatorCompiler: rawBody,
      },
      async (req) => {
        if (!Buffer.isBuffer(req.body)) throw errors.invalid('payment_webhook_not_raw');
        const provider = (req.params as Record<string, string>)[param];
        return receivePaymentWebhook(req.ctx, req.server.providers, provider, req.headers, req.body);
      },
    );
  });
}

/** `POST /store/payment-webhooks/{provider_id}` (no publishable key: the provider's signature is the credential). */
export const storePaymentWebhookRoutes: RouteModule = (app) =>
  webhookRoute(app, '/payment-webhooks/:provider_id', 'provider_id');

/** Medusa's `POST /hooks/payment/{provider}`, `{provider}` being the id without `pp_`. */
export const paymentHookRoutes: RouteModule = (app) => webhookRoute(app, '/payment/:provider', 'provider');
