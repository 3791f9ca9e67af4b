import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/database.ts';
import type { ReadReplicas } from '../db/replicas.ts';

declare module '../context.ts' {
  interface Ctx {
    /**
     * Store catalog reads with read replicas (products): a replica that has replayed everything
     * the primary had at some moment after `since` (performance.now()), else undefined (the
     * primary). The answer cache asks it with the moment its version last moved.
     */
    catalogReplica?: (since: number) => Db | undefined;
  }
}

/**
 * Which reads go to read replicas (DATABASE_READ_URL), in one table: GET routes only.
 * - `catalog`: the store's products, and the products of categories and collections, read through
 *   their answer caches, which are shared by every client: a miss reads on a replica only when that
 *   replica has everything the cache's version counts (store-service.ts), else on the primary.
 * - `replica`: other catalog reads, the admin lists and the dashboard: on a replica in rotation,
 *   unless this client wrote within the marker's window (below).
 * Everything else (carts, checkout, orders of a shopper, every write) is on the primary.
 */
export const REPLICA_ROUTES: Record<string, 'catalog' | 'replica'> = {
  '/store/products': 'catalog',
  '/store/products/:id': 'catalog',
  '/store/product-categories': 'catalog',
  '/store/product-categories/:id': 'catalog',
  '/store/collections': 'catalog',
  '/store/collections/:id': 'catalog',
  '/admin/products': 'replica',
  '/admin/orders': 'replica',
  '/admin/customers': 'replica',
  '/admin/dashboard': 'replica',
};

/** The cookie that carries a client's "I just wrote" marker: the ms timestamp until which it reads on the primary. */
export const WRITE_MARKER_COOKIE = 'emporium_rw';
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Read-your-writes: after a write, the client reads on the primary for `replicas.markerMs`
 * (READ_REPLICA_MAX_LAG_MS plus two polls), after which every replica still in rotation has
 * replayed the write. The marker travels two ways: a short-lived cookie (any instance, any
 * client that keeps cookies: browsers, the admin panel) and, in this instance's memory, under
 * the client's bearer token or session cookie (clients that keep no cookies, as a storefront
 * server calling with a customer's token, on the instance that took the write).
 */
export function registerReadRouting(app: FastifyInstance, replicas: ReadReplicas<Db>, primary: Db): void {
  const wrote = new Map<string, number>();
  const identity = (req: FastifyRequest) => req.headers.authorization ?? sessionCookies(req.headers.cookie);

  // preHandler, after every onRequest hook: who is asking (keys, tokens, users, permissions) is
  // always read on the primary, so a revoked key or role never passes on a lagging replica.
  app.addHook('preHandler', (req: FastifyRequest, _reply: FastifyReply, done) => {
    const kind = req.method === 'GET' ? REPLICA_ROUTES[req.routeOptions.url ?? ''] : undefined;
    if (!kind) return done();
    const now = Date.now();
    const marker = Number(/(?:^|;\s*)emporium_rw=(\d+)/.exec(req.headers.cookie ?? '')?.[1] ?? 0);
    const id = identity(req);
    if (marker > now || (id !== undefined && (wrote.get(id) ?? 0) > now)) return done();
    if (kind === 'catalog') req.ctx.catalogReplica = (since) => replicas.pick(since);
    else req.ctx.db = replicas.pick() ?? primary;
    done();
  });

  app.addHook('onSend', (req, reply, payload, done) => {
    if (WRITES.has(req.method)) {
      const until = Date.now() + replicas.markerMs;
      reply.header(
        'set-cookie',
        `${WRITE_MARKER_COOKIE}=${until}; Path=/; Max-Age=${Math.ceil(replicas.markerMs / 1000)}; HttpOnly; SameSite=Lax`,
      );
      const id = identity(req);
      if (id !== undefined) {
        if (wrote.size > 10_000) for (const [k, t] of wrote) if (t < until - replicas.markerMs) wrote.delete(k);
        wrote.set(id, until);
      }
    }
    done(null, payload);
  });
}

/** The request's cookies without the marker itself: a session's cookies name its client. */
function sessionCookies(header: string | undefined): string | undefined {
  const rest = header?.replace(/(?:^|;\s*)emporium_rw=\d+/, '').trim();
  return rest ? rest : undefined;
}
