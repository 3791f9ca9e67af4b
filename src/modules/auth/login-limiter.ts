import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { Redis } from 'ioredis';
import { errors } from '../../platform/http/errors.ts';
import type { App, AppDeps } from '../../platform/http/types.ts';

const WINDOW_SECONDS = 15 * 60;

/**
 * Brute-force guard: failed logins are counted per email and per IP over 15 minutes
 * (rate-limiter-flexible, in memory or in Redis when instances must share the count).
 * A blocked caller gets 429 with Retry-After before any password is checked.
 */
export class LoginLimiter {
  private byEmail: RateLimiterAbstract;
  private byIp: RateLimiterAbstract;

  constructor(opts: { maxFailures: number; redis?: Redis }) {
    const make = (keyPrefix: string, points: number) =>
      opts.redis
        ? new RateLimiterRedis({ storeClient: opts.redis, keyPrefix, points, duration: WINDOW_SECONDS })
        : new RateLimiterMemory({ keyPrefix, points, duration: WINDOW_SECONDS });
    this.byEmail = make('login_fail_email', opts.maxFailures);
    this.byIp = make('login_fail_ip', opts.maxFailures * 4);
  }

  async assertAllowed(scope: string, email: string, ip: string): Promise<void> {
    const [e, i] = await Promise.all([this.byEmail.get(`${scope}:${email.toLowerCase()}`), this.byIp.get(`${scope}:${ip}`)]);
    const blocked = [e, i].filter((r): r is RateLimiterRes => !!r && r.remainingPoints <= 0);
    if (blocked.length) throw errors.tooManyRequests(Math.max(...blocked.map((r) => r.msBeforeNext)) / 1000);
  }

  async recordFailure(scope: string, email: string, ip: string): Promise<void> {
    await Promise.all([
      this.byEmail.penalty(`${scope}:${email.toLowerCase()}`, 1),
      this.byIp.penalty(`${scope}:${ip}`, 1),
    ]);
  }

  async recordSuccess(scope: string, email: string): Promise<void> {
    await this.byEmail.delete(`${scope}:${email.toLowerCase()}`);
  }
}

const perApp = new WeakMap<AppDeps, LoginLimiter>();

/**
 * The app's one limiter (and one Redis connection), shared by the user and customer logins;
 * they count under different scopes, so a shopper's failures never lock out an admin.
 */
export function sharedLoginLimiter(app: App, deps: AppDeps): LoginLimiter {
  let limiter = perApp.get(deps);
  if (!limiter) {
    const redis = deps.config.redisUrl ? new Redis(deps.config.redisUrl, { lazyConnect: false, maxRetriesPerRequest: 2 }) : undefined;
    if (redis) app.addHook('onClose', async () => void (await redis.quit()));
    limiter = new LoginLimiter({ maxFailures: deps.config.loginMaxFailures, redis });
    perApp.set(deps, limiter);
  }
  return limiter;
}
