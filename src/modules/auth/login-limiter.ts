import type { Redis } from 'ioredis';
import { connectRedis } from '../../platform/redis.ts';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { type AppError, appError, errors } from '../../platform/http/errors.ts';
import { clientKey, trustedIps } from '../../platform/http/client-ip.ts';
import type { App, AppDeps } from '../../platform/http/types.ts';

const WINDOW_SECONDS = 15 * 60;

export interface LoginLimits {
  /**
   * Failed checks per email in a window, from anywhere. Past it the account is under attack:
   * an address that already failed for it is refused, an address that never did still gets its
   * password checked, so no number of strangers can lock the owner out.
   */
  perEmail: number;
  /** Failed checks per client address in a window, across emails (trusted addresses are exempt). */
  perIp: number;
  /** Failed checks per (email, address) in a window; the lowest, so it trips first everywhere. */
  perEmailIp?: number;
  /** Customer registrations (an argon2 hash each) per client address per hour. */
  registrationsPerHour?: number;
  /** Addresses exempt from the per-IP count (a storefront server logs every shopper in from one address). */
  isTrusted?: (ip: string) => boolean;
  redis?: Redis;
  redisPrefix?: string;
}

/** The per-email count never refuses by itself: it only tells whether the account is under attack. */
const UNBOUNDED = 1_000_000_000;

type Budget = { limiter: RateLimiterAbstract; key: string };

/**
 * Brute-force guard (rate-limiter-flexible, in memory or in Redis when instances must share the
 * count). Three counts, each taken *before* the password is checked and given back when it was
 * right, so guesses sent all at once cannot outrun them:
 * - per (email, address): refuses that address for that account past `perEmailIp`;
 * - per address across emails: refuses a sprayer past `perIp` (not for trusted addresses);
 * - per email from anywhere: past `perEmail` failures, only addresses with no failure for this
 *   email get a check. A distributed guesser then gets one guess per address per window, and
 *   the owner, from an address that has not failed, is checked at once.
 * The loopback/trusted exemption only lifts the per-address count, and per (email, address) is
 * below it by default, so the same limit trips first in development and production.
 */
export class LoginLimiter {
  private readonly byEmail: RateLimiterAbstract;
  private readonly byEmailIp: RateLimiterAbstract;
  private readonly byIp: RateLimiterAbstract;
  private readonly registrations: RateLimiterAbstract;
  private readonly isTrusted: (ip: string) => boolean;
  private readonly perEmail: number;

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
    this.perEmail = limits.perEmail;
    this.byEmail = make('login:email', UNBOUNDED);
    this.byEmailIp = make('login:email-ip', limits.perEmailIp ?? Math.max(1, Math.ceil(limits.perIp / 2)));
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
   * Runs `verify` (the password check) only when the counts allow it; true when it said yes
   * (the attempt is then given back). Refused → 429 with Retry-After, nothing checked.
   */
  async check(scope: string, email: string, ip: string, verify: () => Promise<boolean>): Promise<boolean> {
    const account = `${scope}:${email.toLowerCase()}`;
    const address = clientKey(ip);
    const budgets: Budget[] = [
      { limiter: this.byEmailIp, key: `${account}|${address}` },
      { limiter: this.byEmail, key: account },
    ];
    if (!this.isTrusted(ip)) budgets.push({ limiter: this.byIp, key: `${scope}:${address}` });
    const taken = await Promise.allSettled(budgets.map((b) => b.limiter.consume(b.key)));
    const waits: number[] = [];
    for (const r of taken) {
      if (r.status === 'fulfilled') continue;
      if (!(r.reason instanceof RateLimiterRes)) {
        await giveBack(budgets, taken);
        throw countsUnavailable(r.reason); // Redis unreachable: a login must not pass unchecked
      }
      waits.push(r.reason.msBeforeNext);
    }
    const pair = taken[0];
    const accountCount = taken[1];
    if (
      pair.status === 'fulfilled' &&
      accountCount.status === 'fulfilled' &&
      accountCount.value.consumedPoints > this.perEmail &&
      pair.value.consumedPoints > 1
    ) {
      waits.push(pair.value.msBeforeNext); // the account is under attack and this address failed for it
    }
    if (waits.length) {
      await giveBack(budgets, taken);
      throw errors.tooManyRequests(Math.max(...waits) / 1000);
    }
    const ok = await verify();
    if (ok) await giveBack(budgets, taken);
    return ok;
  }

  /** Takes one attempt from the counts with nothing to verify (a password-reset request always counts); 429 past them. */
  async take(scope: string, email: string, ip: string): Promise<void> {
    await this.check(scope, email, ip, async () => false);
  }
}

/** Returns what was taken: a refused or right attempt is no failure. */
async function giveBack(budgets: Budget[], taken: PromiseSettledResult<RateLimiterRes>[]): Promise<void> {
  await Promise.all(budgets.filter((_, i) => taken[i].status === 'fulfilled').map((b) => b.limiter.reward(b.key, 1)));
}

/** The shared counts (Redis) cannot be reached: refuse for now (503) rather than check a password unlimited. */
function countsUnavailable(cause: unknown): AppError {
  return Object.assign(appError('sign_in_unavailable', undefined, { headers: { 'retry-after': '5' } }), { cause });
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
      perEmailIp: config.loginMaxFailuresPerEmailIp,
      registrationsPerHour: config.registerRateLimit,
      isTrusted: trustedIps(config.rateLimitTrustedIps),
      redis,
      redisPrefix: config.redisPrefix,
    });
    perApp.set(deps, limiter);
  }
  return limiter;
}
