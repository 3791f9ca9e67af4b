import type { FastifyReply, FastifyRequest } from 'fastify';
import { parseFields, shapeEnvelope } from './fields.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route shapes its answer by `fields` itself (store products: the shaped text is cached). */
    shapesFields?: boolean;
  }
}

/**
 * The cut a store GET's `fields` asks for, or null when its answer goes out in the default shape
 * (no `fields`, additions only, or an expression this hook leaves to the route). Routes that keep
 * whole answers ask it first, so an answer nobody cuts leaves as the bytes it was kept as.
 */
export function fieldsCut(req: FastifyRequest): NonNullable<ReturnType<typeof parseFields>['selection']> | null {
  const expression = (req.query as { fields?: unknown } | undefined)?.fields;
  if (typeof expression !== 'string' || req.method !== 'GET' || req.routeOptions.config.shapesFields) return null;
  try {
    return parseFields(expression).selection;
  } catch {
    return null; // a route that does not read `fields` answers in full, as before
  }
}

/**
 * The store's `onSend` for `fields` that asks for less than the default shape (`fields=handle`,
 * `-metadata`): a successful GET's JSON is cut down to what was named (fields.ts). Answers in
 * the default shape, or with only additions (every storefront expression but the handle list),
 * pass through untouched; so do errors and routes that shape on their own.
 */
export function shapeByFields(
  req: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (err: null, payload: unknown) => void,
): void {
  const selection = reply.statusCode === 200 && typeof payload === 'string' ? fieldsCut(req) : null;
  if (!selection) {
    done(null, payload);
    return;
  }
  let body: unknown;
  try {
    body = JSON.parse(payload as string);
  } catch {
    body = undefined; // not JSON (a route answering text): as it is
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    done(null, payload);
    return;
  }
  done(null, JSON.stringify(shapeEnvelope(body as Record<string, unknown>, selection)));
}
