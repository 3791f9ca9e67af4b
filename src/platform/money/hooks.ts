import type { FastifyRequest } from 'fastify';
import { errors } from '../http/errors.ts';
import type { App } from '../http/types.ts';
import { toMajor, toMinor } from './convert.ts';
import { exponentOf } from './currencies.ts';
import { compilePlan, mapMoney, type MoneyPlan } from './plan.ts';
import type { AmountUnits } from './schema.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** How this request's amounts are written: AMOUNT_UNITS, or the header below. */
    amountUnits: AmountUnits;
  }
  interface FastifyContextConfig {
    /** The currency of a body's money fields that carries no `currency_code` (a payment's, an order's, a region's). */
    moneyCurrency?: (req: FastifyRequest) => Promise<string | undefined>;
  }
}

/** Per-request override of AMOUNT_UNITS (the bundled admin panel always speaks minor units). */
export const AMOUNT_UNITS_HEADER = 'x-emporium-amount-units';

const plans = new WeakMap<object, MoneyPlan | null>();
function planOf(schema: unknown): MoneyPlan | null {
  if (typeof schema !== 'object' || schema === null) return null;
  let plan = plans.get(schema);
  if (plan === undefined) {
    plan = compilePlan(schema);
    plans.set(schema, plan);
  }
  return plan;
}

// Worded as the validator words a type error, since in minor mode that is what it is.
function integerOnly(amount: number, _currency: string | undefined, path: string): number {
  if (!Number.isInteger(amount)) throw errors.invalid('invalid_amount', { field: path });
  return amount;
}

/**
 * The one place money changes units. Bodies: after validation, amounts marked `Money()` become
 * minor units (or, in minor mode, must be integers). Responses: before serialization, minor
 * units become whole units when the request speaks major. JSON rendered by SQL (the catalog)
 * does its own conversion from `req.ctx.amountUnits`; event and webhook payloads stay minor.
 */
export function registerMoney(app: App, defaultUnits: AmountUnits): void {
  app.decorateRequest('amountUnits', 'minor');
  app.addHook('onRequest', (req, _reply, done) => {
    const asked = req.headers[AMOUNT_UNITS_HEADER];
    req.amountUnits = asked === 'minor' || asked === 'major' ? asked : defaultUnits;
    req.ctx.amountUnits = req.amountUnits;
    done();
  });

  // A callback, not an async hook: most requests carry no money and must not pay for a promise.
  app.addHook('preHandler', (req: FastifyRequest, _reply, done) => {
    const plan = planOf(req.routeOptions.schema?.body);
    if (!plan || req.body === null || typeof req.body !== 'object') return done();
    if (req.amountUnits === 'minor') {
      mapMoney(req.body, plan, undefined, integerOnly); // a throw reaches Fastify's error handling
      return done();
    }
    Promise.resolve(req.routeOptions.config.moneyCurrency?.(req))
      .then((fallback) => {
        // No currency means the resource the route names does not exist: its service answers 404.
        req.body = mapMoney(req.body, plan, fallback, (amount, currency, path) =>
          currency ? toMinor(amount, exponentOf(currency), currency, path) : amount,
        );
      })
      .then(() => done(), done); // a lookup's failure or a bad amount goes to Fastify's error handling
  });

  app.addHook('preSerialization', async (req, reply, payload) => {
    if (req.amountUnits !== 'major' || reply.statusCode >= 300) return payload;
    const responses = reply.routeOptions.schema?.response as Record<string, unknown> | undefined;
    const plan = planOf(responses?.[reply.statusCode] ?? responses?.['2xx']);
    if (!plan) return payload;
    return mapMoney(payload, plan, undefined, (amount, currency) =>
      currency ? toMajor(amount, exponentOf(currency)) : amount,
    );
  });
}
