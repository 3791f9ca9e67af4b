import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { errors } from '../../platform/http/errors.ts';
import type { AppDeps, StoreScope } from '../../platform/http/types.ts';
import type { Database } from '../../platform/db/database.ts';
import { findPublishableScope } from './lookup.ts';

const TTL_MS = 5_000;

interface Entry {
  scope: StoreScope | null;
  until: number;
}

/**
 * Store requests resolve their key once per 5 s per instance, not once per request (the store
 * list is the hot path). Any key or channel change made through this instance clears the cache
 * at once; other instances see it within the TTL.
 */
const caches = new WeakMap<Database, Map<string, Entry>>();

function cacheFor(database: Database): Map<string, Entry> {
  let c = caches.get(database);
  if (!c) {
    c = new Map();
    caches.set(database, c);
  }
  return c;
}

export function invalidateKeyCache(database: Database): void {
  cacheFor(database).clear();
}

/** Routes under /store that are public: the marketplace's federation surface, and payment processors' webhooks (signed). */
function isPublicStorePath(url: string): boolean {
  return (
    url.startsWith('/store/marketplace/') || url === '/store/marketplace' || url.startsWith('/store/payment-webhooks/')
  );
}

/**
 * The scope of a token as this instance holds it right now, without a query: undefined when it
 * is not held (or no longer trusted), null for a key known to be invalid.
 */
function heldStoreScopes(database: Database) {
  const cache = cacheFor(database);
  return (token: string, nowMs: number): StoreScope | null | undefined => {
    const entry = cache.get(token);
    // An entry from "the future" means the clock was set back: do not trust it.
    if (!entry || entry.until <= nowMs || entry.until > nowMs + TTL_MS) return undefined;
    return entry.scope;
  };
}

export function storeGuard(deps: AppDeps) {
  const cache = cacheFor(deps.database);
  const held = heldStoreScopes(deps.database);
  const lookUp = async (req: FastifyRequest, token: string, now: number): Promise<StoreScope | null> => {
    const row = await findPublishableScope(req.ctx.db, token, new Date(now));
    // A key with a scheduled revocation leaves the cache when it is revoked, not up to a TTL later.
    const until = Math.min(now + TTL_MS, row?.revokes_at_ms ?? Infinity);
    const scope = row ? { keyId: row.id, salesChannelIds: row.sales_channel_ids } : null;
    if (cache.size > 10_000) cache.clear();
    cache.set(token, { scope, until });
    return scope;
  };
  const admit = (req: FastifyRequest, scope: StoreScope | null, done: HookHandlerDoneFunction) => {
    if (!scope) return done(errors.unauthorized('publishable_key_invalid'));
    req.store = scope;
    done();
  };
  // A callback hook: a key this instance holds is answered without a promise (the store list is the hot path).
  return function guard(req: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) {
    if (isPublicStorePath(req.url)) return done();
    const token = req.headers['x-publishable-api-key'];
    if (typeof token !== 'string' || token === '') return done(errors.notAllowed('publishable_key_missing'));
    const now = deps.clock.now().getTime();
    const scope = held(token, now);
    if (scope !== undefined) return admit(req, scope, done);
    lookUp(req, token, now).then((found) => admit(req, found, done), done);
  };
}
