import type { FastifyRequest } from 'fastify';
import { connectRedis } from '../../platform/redis.ts';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { errors } from '../../platform/http/errors.ts';
import type { App, AppDeps } from '../../platform/http/types.ts';

const WINDOW_SECONDS = 60;

function makeLimiter(app: App, deps: AppDeps): RateLimiterAbstract {
  const points = deps.config.marketplaceRateLimit;
  const memory = new RateLimiterMemory({ keyPrefix: 'marketplace', points, duration: WINDOW_SECONDS });
  if (!deps.config.redisUrl) return memory;
  const redis = connectRedis(deps.config.redisUrl);
  app.addHook('onClose', async () => void (await redis.quit().catch(() => {})));
  // While Redis is unreachable each instance counts on its own instead of failing requests.
  return new RateLimiterRedis({
    storeClient: redis,
    keyPrefix: `${deps.config.redisPrefix}marketplace`,
    points,
    duration: WINDOW_SECONDS,
    insuranceLimiter: memory,
  });
}

/**
 * `MARKETPLACE_RATE_LIMIT` requests (default 60) per minute per client IP across
 * /store/marketplace/*, counted in Redis when REDIS_URL is set (so every instance shares the
 * count) and in memory otherwise. The IP is the socket's, or X-Forwarded-For with TRUST_PROXY.
 */
export function marketplaceRateLimit(app: App, deps: AppDeps) {
  const limiter = makeLimiter(app, deps);
  return async function rateLimit(req: FastifyRequest) {
    try {
      await limiter.consume(req.ip);
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) throw errors.tooManyRequests(rejection.msBeforeNext / 1000);
      throw rejection;
    }
  };
}
