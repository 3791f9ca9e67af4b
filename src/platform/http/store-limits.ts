import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { Redis } from 'ioredis';
import { connectRedis } from '../redis.ts';
import { clientKey, trustedIps } from './client-ip.ts';
import { appError, errors } from './errors.ts';
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

/** The cost of a store request with this (unvalidated) query; null for a heavy page, which waits for a slot. */
export function lightRequestCost(query: unknown): number | null {
  const limit = requestedLimit(query);
  return limit > HEAVY_PAGE ? null : storeRequestCost(limit);
}

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
  const heavy = new Slots(config.storeHeavyConcurrency, Math.max(16, config.storeHeavyConcurrency * QUEUE_PER_SLOT));
  app.addHook('onClose', async () => {
    counter.close();
    await redis?.quit().catch(() => {});
  });

  /** Spends `cost` of the client's budget; the milliseconds to wait when it is spent (0: go ahead). */
  const spend = (ip: string, cost: number): number =>
    config.storeRateLimit > 0 && !isTrusted(ip) ? counter.spend(clientKey(ip), cost) : 0;

  return {
    // A callback hook: a light page (nearly every store request) goes on without a promise.
    onRequest: (req: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
      if (req.url.startsWith('/store/marketplace')) return done(); // the marketplace's own limit (MARKETPLACE_RATE_LIMIT)
      const limit = requestedLimit(req.query);
      const waitMs = spend(req.ip, storeRequestCost(limit));
      if (waitMs > 0) return done(errors.tooManyRequests(waitMs / 1000));
      if (limit <= HEAVY_PAGE) return done();
      const slot = heavy.tryAcquire();
      if (!slot) return done(appError('too_many_large_pages', undefined, { headers: { 'retry-after': '1' } }));
      slot.then(() => {
        // 'close' comes once the response is sent or the connection is gone, whatever happened.
        reply.raw.once('close', () => heavy.release());
        done();
      });
    },
  };
}
