import type { FastifyRequest, onRequestHookHandler, onSendHookHandler } from 'fastify';
import type { CatalogLeases } from './catalog-leases.ts';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Hooks for every route: a write's answer goes once every lease holder has heard it. Only a
 * request during which this process committed a change the store shows waits (any such commit,
 * its own or a concurrent one's: never too few); a cart or a login does not.
 */
export function settleWrites(leases: CatalogLeases): { onRequest: onRequestHookHandler; onSend: onSendHookHandler } {
  const commitsAtStart = new WeakMap<FastifyRequest, { commits: number; listing: number; stock: number }>();
  return {
    onRequest: (req, _reply, done) => {
      if (!READS.has(req.method))
        commitsAtStart.set(req, {
          commits: leases.commitCount,
          listing: leases.listingCount,
          stock: leases.stockCount,
        });
      done();
    },
    onSend: (req, reply, payload, done) => {
      const start = commitsAtStart.get(req);
      if (start === undefined || start.commits === leases.commitCount) return done(null, payload);
      // A checkout moves stock only: the answers that show no stock stay, and of those that show
      // stock only the ones holding the products it (or a write beside it) moved.
      const kind = start.listing === leases.listingCount ? 'stock' : 'listing';
      const products = kind === 'stock' ? leases.stockSince(start.stock) : null;
      // An error answer wrote nothing (a failed write rolls back): when the database cannot be
      // asked who holds a lease, it goes at once instead of waiting out the longest one.
      void leases.settle(reply.statusCode >= 400, kind, products).then(() => done(null, payload));
    },
  };
}
