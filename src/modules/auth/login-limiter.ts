import type { Redis } from 'ioredis';
import { connectRedis } from '../../platform/redis.ts';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { AppError, errors } from '../../platform/http/errors.ts';
import { clientKey, trustedIps } from '../../platform/http/client-ip.ts';
import type { App, AppDeps } from '../../platform/http/types.ts';

const WINDOW_SECONDS = 15 * 60;

export interface LoginLimits {
  /** Password checks per email in a window, from anywhere (a distributed guesser's ceiling). */
  perEmail: number;
  /** Password checks per client address in a window, across emails; lower, so one address trips first. */
  perIp: number;
  /** Customer registrations (an argon2 hash each) per client address per hour. */
  registrationsPerHour?: number;
  /** Addresses exempt from the per-IP count (a storefront server logs every shopper in from one address). */
  isTrusted?: (ip: string) => boolean;
  redis?: Redis;
  redisPrefix?: string;
}

/**
 * Brute-force guard (rate-limiter-flexible, in memory or in Redis when instances must share the
 * count). An attempt is taken from the per-email and per-IP budgets *before* the password is
 * checked and given back when it was right, so guesses sent all at once cannot outrun the count:
 * however they arrive, at most `perEmail` wrong passwords are ever checked per email per window.
 */
export class LoginLimiter {
  private readonly byEmail: RateLimiterAbstract;
  private readonly byIp: RateLimiterAbstract;
  private readonly registrations: RateLimiterAbstract;
  private readonly isTrusted: (ip: string) => boolean;

  constructor(limits: LoginLimits) {
    const make = (name: string, points: number, duration = WINDOW_SECONDS) =>
      limits.redis
        ? new RateLimiterRedis({
            storeClient: limits.redis,
            keyPrefix: `${limits.redisPrefix ?? 'emporium:'}${name}`,
            points,
            duration,
          })
        : new RateLimiterMemory({ keyPrefix: name, points, duration });
    this.byEmail = make('login:email', limits.perEmail);
    this.byIp = make('login:ip', limits.perIp);
    this.registrations = make('register:ip', limits.registrationsPerHour ?? 20, 3600);
    this.isTrusted = limits.isTrusted ?? (() => false);
  }

  /** Takes one registration from the address's hourly budget (before the password is hashed); 429 past it. */
  async takeRegistration(ip: string): Promise<void> {
    if (this.isTrusted(ip)) return;
    try {
      await this.registrations.consume(clientKey(ip));
    } catch (err) {
      if (err instanceof RateLimiterRes) throw errors.tooManyRequests(err.msBeforeNext / 1000);
      throw countsUnavailable(err);
    }
  }

  /**
   * Runs `verify` (the password check) only when both budgets have an attempt left; true when
   * it said yes (the attempt is then given back). No attempt left → 429 with Retry-After.
   */
  async check(scope: string, email: string, ip: string, verify: () => Promise<boolean>): Promise<boolean> {
    const keys: [RateLimiterAbstract, string][] = [[this.byEmail, `${scope}:${email.toLowerCase()}`]];
    if (!this.isTrusted(ip)) keys.push([this.byIp, `${scope}:${clientKey(ip)}`]);
    const taken = await Promise.allSettled(keys.map(([limiter, key]) => limiter.consume(key)));
    const refused = taken.filter((r) => r.status === 'rejected').map((r) => r.reason as unknown);
    if (refused.length) {
      // Nothing was checked: what was taken from the other budget goes back.
      await Promise.all(keys.filter((_, i) => taken[i].status === 'fulfilled').map(([l, key]) => l.reward(key, 1)));
      const waits = refused.map((r) => {
        if (r instanceof RateLimiterRes) return r.msBeforeNext;
        throw countsUnavailable(r); // Redis unreachable: a login must not pass unchecked
      });
      throw errors.tooManyRequests(Math.max(...waits) / 1000);
    }
    const ok = await verify();
    if (ok) await Promise.all(keys.map(([limiter, key]) => limiter.reward(key, 1)));
    return ok;
  }

  /** Takes one attempt from both budgets with nothing to verify (a password-reset request always counts); 429 past them. */
  async take(scope: string, email: string, ip: string): Promise<void> {
    await this.check(scope, email, ip, async () => false);
  }
}

/** The shared counts (Redis) cannot be reached: refuse for now (503) rather than check a password unlimited. */
function countsUnavailable(cause: unknown): AppError {
  return Object.assign(
    new AppError('service_unavailable', 'Sign-in is unavailable for a moment; retry shortly', {
      headers: { 'retry-after': '5' },
    }),
    { cause },
  );
}

const perApp = new WeakMap<AppDeps, LoginLimiter>();

/**
 * The app's one limiter (and one Redis connection), shared by the user and customer logins;
 * they count under different scopes, so a shopper's failures never lock out an admin.
 */
export function sharedLoginLimiter(app: App, deps: AppDeps): LoginLimiter {
  let limiter = perApp.get(deps);
  if (!limiter) {
    const { config } = deps;
    const redis = config.redisUrl ? connectRedis(config.redisUrl) : undefined;
    if (redis) app.addHook('onClose', async () => void (await redis.quit().catch(() => {})));
    limiter = new LoginLimiter({
      perEmail: config.loginMaxFailures,
      perIp: config.loginMaxFailuresPerIp,
      registrationsPerHour: config.registerRateLimit,
      isTrusted: trustedIps(config.rateLimitTrustedIps),
      redis,
      redisPrefix: config.redisPrefix,
    });
    perApp.set(deps, limiter);
  }
  return limiter;
}
