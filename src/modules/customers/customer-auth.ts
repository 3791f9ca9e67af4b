import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { errors } from '../../platform/http/errors.ts';
import type { AppDeps } from '../../platform/http/types.ts';
import {
  bearerToken,
  isCurrentToken,
  tokenKeys,
  verifyToken,
  type ActorClaims,
  type TokenKeys,
} from '../auth/tokens.ts';
import { sessionClaims } from '../sessions/cookie.ts';
import { findAccountHolder } from './queries.ts';

/**
 * Who is shopping, on every /store route. The API for other store modules (carts, orders):
 *
 *   req.customer          `{ id, email }` of the signed-in customer, or null for a guest
 *   requireCustomer(req)  that customer, or a 401 `unauthorized` for routes only customers may use
 *
 * `customerAuth` (installed on the /store scope in app.ts, after the publishable key check) reads
 * `Authorization: Bearer <customer token>`, else the `connect.sid` session cookie, and accepts
 * only a live account holder whose token no password reset has revoked (the login's token
 * version is read in the same query as the account). Anything else (an admin token, an expired,
 * forged or revoked token, a register token before `POST /store/customers`, a deleted customer)
 * leaves req.customer null: the store stays open to guests, and what needs a customer answers 401.
 * A request without a token or cookie (a guest's catalog read) reads nothing.
 *
 * Isolation rule for callers: scope every read and write by `req.customer.id`, never by an id
 * from the request.
 */
export interface StoreCustomer {
  id: string;
  email: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in customer on /store routes, set by `customerAuth` below; null for a guest. */
    customer: StoreCustomer | null;
  }
}

export function requireCustomer(req: FastifyRequest): StoreCustomer {
  if (!req.customer) throw errors.unauthorized('unauthorized');
  return req.customer;
}

/** The claims of a customer bearer token, else of a customer session; null when neither. */
export async function customerClaims(req: FastifyRequest, keys: TokenKeys): Promise<ActorClaims | null> {
  const token = bearerToken(req.headers.authorization);
  const fromBearer = token ? await verifyToken(keys, req.ctx.clock, token) : null;
  if (fromBearer?.actor_type === 'customer') return fromBearer;
  const fromSession = await sessionClaims(req);
  return fromSession?.actor_type === 'customer' ? fromSession : null;
}

export function customerAuth(deps: AppDeps) {
  const keys = tokenKeys(deps.config.jwtSecret, deps.config.jwtExpiresInSeconds, deps.config.jwtSecretPrevious);
  const resolveCustomer = async (req: FastifyRequest) => {
    const claims = await customerClaims(req, keys);
    const holder = claims?.actor_id
      ? await findAccountHolder(req.ctx.db, claims.actor_id, claims.auth_identity_id)
      : undefined;
    req.customer =
      claims && holder?.email && isCurrentToken(claims, holder.token_version)
        ? { id: holder.id, email: holder.email }
        : null;
  };
  // A callback hook: a guest's read (no token, no cookie) is most of the store's traffic and
  // must not pay for a promise and a microtask turn.
  return function customer(req: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
    if (req.headers.authorization === undefined && req.headers.cookie === undefined) {
      req.customer = null;
      done();
      return;
    }
    resolveCustomer(req).then(() => done(), done);
  };
}
