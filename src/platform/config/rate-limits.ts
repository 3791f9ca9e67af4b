import { type Env, intVar, ipList } from './env.ts';

/** Per-client limits (docs/configuration.md "Rate limits and clients"). */
export interface RateLimitConfig {
  /** Failed logins per email (from any address) in a 15-minute window past which only addresses that never failed for it are checked. */
  loginMaxFailures: number;
  /** Failed logins allowed per client address (across emails) in that window; below the per-email count. */
  loginMaxFailuresPerIp: number;
  /** Failed logins per (email, client address) per 15 minutes; below the per-address count so it trips first. */
  loginMaxFailuresPerEmailIp: number;
  /** Addresses or CIDR ranges exempt from per-IP limits (storefront servers); per-email login limits still apply. */
  rateLimitTrustedIps: string[];
  /** Cost points per minute per client address on /store (a request costs 1, a large page more). */
  storeRateLimit: number;
  /** Customer registrations (`POST /auth/customer/emailpass/register`) per hour per client address. */
  registerRateLimit: number;
  /** Expensive store requests (large pages) running at once per instance; the rest wait their turn. */
  storeHeavyConcurrency: number;
  /** Requests per minute per IP across /store/marketplace/* (marketplace role). */
  marketplaceRateLimit: number;
}

export function rateLimitConfig(env: Env, production: boolean): RateLimitConfig {
  const loginMaxFailures = intVar(env, 'LOGIN_MAX_FAILURES', 20);
  const loginMaxFailuresPerIp = intVar(env, 'LOGIN_MAX_FAILURES_PER_IP', Math.max(1, Math.ceil(loginMaxFailures / 2)));
  return {
    loginMaxFailures,
    loginMaxFailuresPerIp,
    // Below the per-address count, so one address spraying one account trips this first, trusted or not.
    loginMaxFailuresPerEmailIp: intVar(
      env,
      'LOGIN_MAX_FAILURES_PER_EMAIL_IP',
      Math.max(1, Math.ceil(loginMaxFailuresPerIp / 2)),
    ),
    // Outside production the machine's own processes (a local storefront, a benchmark) are trusted.
    rateLimitTrustedIps: ipList(env, 'RATE_LIMIT_TRUSTED_IPS', production ? '' : '127.0.0.0/8,::1'),
    storeRateLimit: intVar(env, 'STORE_RATE_LIMIT', 1200),
    registerRateLimit: intVar(env, 'REGISTER_RATE_LIMIT', 20),
    // PGlite runs every statement on the Node thread: two large pages at once put two slices in
    // one turn of the event loop (test/store-event-loop.test.ts), so one at a time there.
    storeHeavyConcurrency: Math.max(1, intVar(env, 'STORE_HEAVY_CONCURRENCY', env.DATABASE_URL ? 2 : 1)),
    marketplaceRateLimit: intVar(env, 'MARKETPLACE_RATE_LIMIT', 60),
  };
}
