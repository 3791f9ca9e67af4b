import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { connectRedis } from '../redis.ts';
import { clientKey, trustedIps } from './client-ip.ts';
import { AppError, errors } from './errors.ts';
import type { App, AppDeps } from './types.ts';
import { WindowCounter } from './window-counter.ts';

const WINDOW_MS = 60_000;
/** A page larger than this is "heavy": it waits for a heavy slot. */
const HEAVY_PAGE = 100;
/** Heavy requests allowed to wait for a slot per running one; beyond that, 503. */
const QUEUE_PER_SLOT = 8;

/** The page size a request asks for (`?limit=`, before validation), 0 when none or not a number. */
function requestedLimit(query: unknown): number {
  const limit = Number((query as { limit?: unknown } | undefined)?.limit);
  return Number.isFinite(limit) && limit > 0 ? Math.min(limit, 1000) : 0;
}

/** What a store request costs: 1, plus 1 per 50 rows asked for (`limit=1000` costs 21). */
const storeRequestCost = (limit: number): number => 1 + Math.floor(limit / 50);

/**
 * At most `size` tasks at once; the rest wait in order, each start a turn of the event loop
 * later (setImmediate), so requests that need no database (health checks, cached reads) are
 * answered between two heavy ones.
 */
class Slots {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(
    private readonly size: number,
    private readonly maxWaiting: number,
  ) {}
  /** False when the queue is full. */
  tryAcquire(): Promise<void> | false {
    if (this.running < this.size) {
      this.running++;
      return Promise.resolve();
    }
    if (this.waiting.length >= this.maxWaiting) return false;
    return new Promise((resolve) => this.waiting.push(resolve));
  }
  release(): void {
    const next = this.waiting.shift();
    if (next) setImmediate(next);
    else this.running--;
  }
}

/**
 * The store surface's protection, installed as hooks on the /store scope (app.ts):
 * a per-client budget of STORE_RATE_LIMIT cost points a minute (429 with Retry-After past it;
 * in memory, shared through Redis when REDIS_URL is set, without a Redis call per request),
 * and STORE_HEAVY_CONCURRENCY large pages at a time per instance (a bounded queue, then 503).
 * RATE_LIMIT_TRUSTED_IPS (storefront servers; loopback outside production) skip the budget.
 */
export function storeLimits(app: App, deps: AppDeps) {
  const { config } = deps;
  const isTrusted = trustedIps(config.rateLimitTrustedIps);
  let redis: Redis | undefined;
  if (config.redisUrl) redis = connectRedis(config.redisUrl);
  const counter = new WindowCounter({
    points: config.storeRateLimit,
    windowMs: WINDOW_MS,
    now: () => deps.clock.now().getTime(),
    redis,
    keyPrefix: `${config.redisPrefix}store:`,
    onSyncError: (err) => app.log.warn({ err }, 'store rate limit: Redis sync failed; counting locally'),
  });
  const heavy = new Slots(config.storeHeavyConcurrency, config.storeHeavyConcurrency * QUEUE_PER_SLOT);
  app.addHook('onClose', async () => {
    counter.close();
    await redis?.quit().catch(() => {});
  });

  return {
    onRequest: async (req: FastifyRequest, reply: FastifyReply) => {
      if (req.url.startsWith('/store/marketplace')) return; // the marketplace's own limit (MARKETPLACE_RATE_LIMIT)
      const limit = requestedLimit(req.query);
      if (config.storeRateLimit > 0 && !isTrusted(req.ip)) {
        const waitMs = counter.spend(clientKey(req.ip), storeRequestCost(limit));
        if (waitMs > 0) throw errors.tooManyRequests(waitMs / 1000);
      }
      if (limit > HEAVY_PAGE) {
        const slot = heavy.tryAcquire();
        if (!slot)
          throw new AppError('service_unavailable', 'Too many large pages are being prepared; retry shortly', {
            headers: { 'retry-after': '1' },
          });
        await slot;
        // 'close' comes once the response is sent or the connection is gone, whatever happened.
        reply.raw.once('close', () => heavy.release());
      }
    },
  };
}
