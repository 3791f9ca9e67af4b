import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isatty } from 'node:tty';
import { parseDurationSeconds } from './duration.ts';
import { parseIpRange, proxyTrust, type TrustProxy } from './http/client-ip.ts';
import { storageConfig, type StorageConfig } from './storage-config.ts';

export type ServiceRole = 'shop' | 'marketplace';

/** What a small shop needs; PostgreSQL's own default (128MB) is zeroed at every open and resident for good. */
export const DEFAULT_PGLITE_SHARED_BUFFERS = '8MB';

export interface Config {
  role: ServiceRole;
  production: boolean;
  host: string;
  port: number;
  publicUrl: string;
  dataDir: string;
  /** When set, PostgreSQL through a pg pool; otherwise embedded PGlite under dataDir. */
  databaseUrl?: string;
  /** Embedded database: PostgreSQL's `shared_buffers` (PGLITE_SHARED_BUFFERS, e.g. `8MB`): PGlite zeroes all of it at open, so all of it stays resident. */
  pgliteSharedBuffers: string;
  redisUrl?: string;
  /** Prefix of every Redis key this instance writes (several deployments, or test runs, may share one Redis). */
  redisPrefix: string;
  jwtSecret: string;
  /** JWT_SECRET_PREVIOUS: the secret being rotated out; tokens it signed verify until it is removed. */
  jwtSecretPrevious?: string;
  jwtExpiresInSeconds: number;
  cookieSecret: string;
  /** COOKIE_SECRET_PREVIOUS: cookies it signed are still read until it is removed; new ones use COOKIE_SECRET. */
  cookieSecretPrevious?: string;
  encryptionKey: string;
  adminEmail?: string;
  adminPassword?: string;
  pluginsDir: string;
  logLevel: string;
  /** LOG_REQUESTS=true: a log line as each request starts and completes (off by default: it costs throughput). */
  logRequests: boolean;
  /** LOG_FORMAT: JSON lines for log collectors, or pino-pretty's readable lines for a person at a terminal. */
  logFormat: 'json' | 'pretty';
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
  /** On SIGTERM, how long requests in flight may take to finish before the process closes anyway. */
  shutdownDrainMs: number;
  /** PostgreSQL: a request waiting longer than this for a connection fails with 503 instead of hanging. */
  databaseConnectTimeoutMs: number;
  /** How often each instance looks for carts idle for an hour (cart.abandoned). */
  cartAbandonmentCheckMs: number;
  /** How often each instance checks for tables whose planner statistics are stale (db/statistics.ts). */
  analyzeCheckMs: number;
  /** Dispatched outbox events older than this many days are deleted (events/outbox-retention.ts); 0 keeps them. */
  outboxRetentionDays: number;
  /** Outbound deliveries (webhooks, license callbacks): a receiver must answer within this. */
  deliveryTimeoutMs: number;
  /** How long a claimed delivery stays with the instance that claimed it (a crashed one's are retried after). */
  deliveryLeaseMs: number;
  /**
   * TRUST_PROXY: which X-Forwarded-For entries are our proxies' (http/client-ip.ts proxyTrust): none
   * (false, the socket's address is the client), how many proxies are in front (1), their
   * addresses or CIDR ranges, or every entry (true, refused in production).
   */
  trustProxy: TrustProxy;
  /** Browser origins allowed per surface (STORE_CORS, ADMIN_CORS, AUTH_CORS, comma-separated, as in Medusa). */
  cors: Record<'store' | 'admin' | 'auth', string[]>;
  /** Requests per minute per IP across /store/marketplace/* (marketplace role). */
  marketplaceRateLimit: number;
  /** Lets production webhooks target loopback, private and link-local addresses (refused by default there). */
  webhookAllowPrivate: boolean;
  /** Shop: the marketplace it federates with (`SERVICE_FEDERATION_URL` + `_PK`); absent = local plugins only. */
  federation?: FederationConfig;
  /** A plugin route handler that has not answered after this long gets a 504. */
  pluginRouteTimeoutMs: number;
  /** Each plugin's server code runs in its own process (modules/plugins/sandbox): its limits. */
  pluginSandbox: PluginSandboxConfig;
  /** Where shoppers reset a forgotten password: the emailed link is `<STOREFRONT_URL>/reset-password?token=…&email=…`. */
  storefrontUrl: string;
  /** A payment or notification provider call (a plugin's) that has not answered by then is given up. */
  providerTimeoutMs: number;
  /** Marketplace role: Stripe Checkout instead of the built-in test payment provider. */
  stripe?: StripeConfig;
  /** AMOUNT_UNITS: `minor` (integers, 1999 = €19.99, the default) or `major` (Medusa v2's 19.99). */
  amountUnits: 'minor' | 'major';
  /** STORE_LOCALES: languages `GET /store/locales` offers (BCP 47 codes). */
  storeLocales: string[];
  /** Uploaded files: local disk (`DATA_DIR/uploads`, the default) or an S3-compatible bucket. */
  storage: StorageConfig;
}

export interface StripeConfig {
  secretKey: string;
  /** Verifies the Stripe-Signature of checkout.session.completed events. */
  webhookSecret: string;
  /** Where the Stripe client connects instead of api.stripe.com (tests point it at a local stand-in). */
  apiBase?: { protocol: 'http' | 'https'; host: string; port: number };
}

export interface FederationConfig {
  /** Base URL of the marketplace, without a trailing slash. */
  url: string;
  /** Sent as `x-publishable-api-key` on feed calls. */
  publishableKey: string;
  /** base64 raw 32-byte Ed25519 key to trust instead of pinning the marketplace's key on first use. */
  signingKey?: string;
  /** Every call to the marketplace gives up after this long (502 to the admin). */
  timeoutMs: number;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

const SECRET_NAMES = ['JWT_SECRET', 'COOKIE_SECRET', 'ENCRYPTION_KEY'] as const;

/**
 * Secrets come from the environment; outside production a missing one is generated once
 * and kept in `DATA_DIR/secrets.json` (mode 0600) so tokens survive restarts.
 */
function loadSecrets(env: Env, dataDir: string, production: boolean): Record<(typeof SECRET_NAMES)[number], string> {
  const missing = SECRET_NAMES.filter((n) => !env[n]);
  if (missing.length && production) {
    throw new ConfigError(`${missing.join(', ')} must be set when NODE_ENV=production`);
  }
  let stored: Record<string, string> = {};
  const file = path.join(dataDir, 'secrets.json');
  if (missing.length) {
    if (existsSync(file)) stored = JSON.parse(readFileSync(file, 'utf8'));
    let changed = false;
    for (const n of missing) {
      if (!stored[n]) {
        stored[n] = randomBytes(32).toString('hex');
        changed = true;
      }
    }
    if (changed) {
      mkdirSync(dataDir, { recursive: true });
      writeFileSync(file, JSON.stringify(stored, null, 2), { mode: 0o600 });
    }
  }
  // HS256 with a short key falls to an offline guess from any one token (RFC 7518: at least 256 bits).
  if (production && Buffer.byteLength(env.JWT_SECRET ?? '') < 32) {
    throw new ConfigError('JWT_SECRET must be at least 32 bytes when NODE_ENV=production');
  }
  return {
    JWT_SECRET: env.JWT_SECRET || stored.JWT_SECRET,
    COOKIE_SECRET: env.COOKIE_SECRET || stored.COOKIE_SECRET,
    ENCRYPTION_KEY: env.ENCRYPTION_KEY || stored.ENCRYPTION_KEY,
  };
}

export interface PluginSandboxConfig {
  /** V8 heap cap of a plugin process (`--max-old-space-size`), PLUGIN_MEMORY_MB. */
  memoryMb: number;
  /** Deadline of one event handler call (PLUGIN_CALL_TIMEOUT_MS); routes use PLUGIN_ROUTE_TIMEOUT_MS. */
  callTimeoutMs: number;
  /** Crashes within `crashWindowMs` after which the plugin is set failed (PLUGIN_MAX_CRASHES). */
  maxCrashes: number;
  crashWindowMs: number;
  /** First restart delay after a crash, doubled per crash in the window (PLUGIN_RESTART_DELAY_MS). */
  restartDelayMs: number;
  /** Where the child runner lives when not beside the plugins module (a compiled bundle). */
  runnerDir?: string;
}

function intVar(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new ConfigError(`${name} must be a non-negative integer, got "${raw}"`);
  return n;
}

/** A PostgreSQL memory size such as `16MB`, passed to the embedded database as it is. */
function memorySize(env: Env, name: string, fallback: string): string {
  const raw = env[name] || fallback;
  if (!/^[1-9]\d*(kB|MB|GB)$/.test(raw))
    throw new ConfigError(`${name} must look like 16MB, 512kB or 1GB, got "${raw}"`);
  return raw;
}

function ipList(env: Env, name: string, fallback: string): string[] {
  const entries = originList(env[name], fallback);
  for (const entry of entries) {
    try {
      parseIpRange(entry);
    } catch {
      throw new ConfigError(`${name} must list IP addresses or CIDR ranges, got "${entry}"`);
    }
  }
  return entries;
}

/** proxy-addr's names for ranges, and an IPv4 address with an optional prefix length or netmask. */
const IP_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];
const DOTTED_IPV4_RANGE = /^\d{1,3}(\.\d{1,3}){3}(\/(\d{1,2}|\d{1,3}(\.\d{1,3}){3}))?$/;

/**
 * TRUST_PROXY as Fastify's trustProxy and proxy-addr take it. `true` believes the leftmost
 * X-Forwarded-For entry, which the client writes itself behind a proxy that appends to the
 * header (nginx's $proxy_add_x_forwarded_for, AWS ALB, Cloudflare): any address, a trusted one
 * included, for every per-address limit. Production needs the proxies counted or named instead.
 */
function trustProxyVar(env: Env, production: boolean): TrustProxy {
  const raw = (env.TRUST_PROXY ?? '').trim();
  if (raw === '' || raw === 'false') return false;
  if (raw === 'true') {
    if (production)
      throw new ConfigError(
        'TRUST_PROXY=true is refused when NODE_ENV=production: behind a proxy that appends to X-Forwarded-For ' +
          '(nginx, AWS ALB, Cloudflare) a client picks its own address; set the number of proxies in front ' +
          '(TRUST_PROXY=1) or their addresses (TRUST_PROXY=10.0.0.0/8)',
      );
    return true;
  }
  const bad = new ConfigError(
    `TRUST_PROXY must be a number of proxies (1), their addresses or CIDR ranges (10.0.0.0/8,127.0.0.1), false or true, got "${raw}"`,
  );
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (!Number.isSafeInteger(hops)) throw bad;
    return hops === 0 ? false : hops;
  }
  const entries = raw.split(',').map((e) => e.trim());
  // proxy-addr also reads `1.5` as 1.0.0.5 (inet_aton's shorthand): for IPv4, four parts or nothing.
  if (entries.some((e) => !e.includes(':') && !IP_RANGE_NAMES.includes(e) && !DOTTED_IPV4_RANGE.test(e))) throw bad;
  try {
    proxyTrust(entries);
  } catch {
    throw bad;
  }
  return entries;
}

function stripeConfig(env: Env): StripeConfig | undefined {
  if (!env.STRIPE_SECRET_KEY) return undefined;
  if (!env.STRIPE_WEBHOOK_SECRET)
    throw new ConfigError(
      'STRIPE_WEBHOOK_SECRET must be set with STRIPE_SECRET_KEY (payments complete through its signed webhook)',
    );
  let apiBase: StripeConfig['apiBase'];
  if (env.STRIPE_API_BASE) {
    const url = URL.canParse(env.STRIPE_API_BASE) ? new URL(env.STRIPE_API_BASE) : null;
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
      throw new ConfigError(`STRIPE_API_BASE must be an http(s) URL, got "${env.STRIPE_API_BASE}"`);
    const protocol = url.protocol === 'http:' ? 'http' : 'https';
    apiBase = { protocol, host: url.hostname, port: Number(url.port) || (protocol === 'http' ? 80 : 443) };
  }
  return { secretKey: env.STRIPE_SECRET_KEY, webhookSecret: env.STRIPE_WEBHOOK_SECRET, apiBase };
}

function federationConfig(env: Env): FederationConfig | undefined {
  const url = env.SERVICE_FEDERATION_URL;
  const publishableKey = env.SERVICE_FEDERATION_PK;
  if (!url && !publishableKey) return undefined;
  if (!url || !publishableKey)
    throw new ConfigError('SERVICE_FEDERATION_URL and SERVICE_FEDERATION_PK must be set together');
  const parsed = URL.canParse(url) ? new URL(url) : null;
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:'))
    throw new ConfigError(`SERVICE_FEDERATION_URL must be an http(s) URL, got "${url}"`);
  const signingKey = env.SERVICE_FEDERATION_SIGNING_KEY || undefined;
  if (signingKey && Buffer.from(signingKey, 'base64').length !== 32) {
    throw new ConfigError('SERVICE_FEDERATION_SIGNING_KEY must be the base64 of a raw 32-byte Ed25519 public key');
  }
  return {
    url: url.replace(/\/+$/, ''),
    publishableKey,
    signingKey,
    timeoutMs: intVar(env, 'SERVICE_FEDERATION_TIMEOUT_MS', 10_000),
  };
}

function originList(raw: string | undefined, fallback: string): string[] {
  return (raw ?? fallback)
    .split(',')
    .map((o) => o.trim().replace(/\/$/, ''))
    .filter(Boolean);
}

/** `stdoutIsTerminal` decides LOG_FORMAT's default: a person at a terminal reads lines, a collector reads JSON. */
export function loadConfig(env: Env = process.env, stdoutIsTerminal = isatty(1)): Config {
  const role = (env.SERVICE_ROLE || 'shop') as ServiceRole;
  if (role !== 'shop' && role !== 'marketplace')
    throw new ConfigError(`SERVICE_ROLE must be shop or marketplace, got "${role}"`);
  const production = env.NODE_ENV === 'production';
  const host = env.HOST || '127.0.0.1';
  const port = intVar(env, 'PORT', role === 'marketplace' ? 9100 : 9000);
  const dataDir = path.resolve(env.DATA_DIR || './.data');
  const expires = parseDurationSeconds(env.JWT_EXPIRES_IN || '24h');
  if (!expires) throw new ConfigError(`JWT_EXPIRES_IN must look like 24h, 1d, 90m or a number of seconds`);
  const secrets = loadSecrets(env, dataDir, production);
  const loginMaxFailures = intVar(env, 'LOGIN_MAX_FAILURES', 20);
  const loginMaxFailuresPerIp = intVar(env, 'LOGIN_MAX_FAILURES_PER_IP', Math.max(1, Math.ceil(loginMaxFailures / 2)));
  const deliveryTimeoutMs = intVar(env, 'DELIVERY_TIMEOUT_MS', 30_000);
  const deliveryLeaseMs = intVar(env, 'DELIVERY_LEASE_MS', deliveryTimeoutMs + 30_000);
  // The engine starts a send only while the lease still covers the whole timeout plus 5 s.
  if (deliveryLeaseMs < deliveryTimeoutMs + 6_000)
    throw new ConfigError('DELIVERY_LEASE_MS must exceed DELIVERY_TIMEOUT_MS by at least 6000');
  if (env.LOG_FORMAT && !['json', 'pretty'].includes(env.LOG_FORMAT))
    throw new ConfigError(`LOG_FORMAT must be json or pretty, got "${env.LOG_FORMAT}"`);
  if (env.AMOUNT_UNITS && !['minor', 'major'].includes(env.AMOUNT_UNITS))
    throw new ConfigError(`AMOUNT_UNITS must be minor or major, got "${env.AMOUNT_UNITS}"`);
  const config: Config = {
    role,
    production,
    host,
    port,
    publicUrl: (env.PUBLIC_URL || `http://${host}:${port}`).replace(/\/$/, ''),
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    pgliteSharedBuffers: memorySize(env, 'PGLITE_SHARED_BUFFERS', DEFAULT_PGLITE_SHARED_BUFFERS),
    redisUrl: env.REDIS_URL || undefined,
    redisPrefix: env.REDIS_PREFIX || 'emporium:',
    jwtSecret: secrets.JWT_SECRET,
    jwtSecretPrevious: env.JWT_SECRET_PREVIOUS || undefined,
    jwtExpiresInSeconds: expires,
    cookieSecret: secrets.COOKIE_SECRET,
    cookieSecretPrevious: env.COOKIE_SECRET_PREVIOUS || undefined,
    encryptionKey: secrets.ENCRYPTION_KEY,
    adminEmail: env.ADMIN_EMAIL || undefined,
    adminPassword: env.ADMIN_PASSWORD || undefined,
    pluginsDir: path.resolve(env.PLUGINS_DIR || './plugins'),
    logLevel: env.LOG_LEVEL || 'info',
    logRequests: env.LOG_REQUESTS === 'true',
    logFormat: (env.LOG_FORMAT as Config['logFormat']) || (stdoutIsTerminal ? 'pretty' : 'json'),
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
    storeHeavyConcurrency: Math.max(1, intVar(env, 'STORE_HEAVY_CONCURRENCY', 2)),
    shutdownDrainMs: intVar(env, 'SHUTDOWN_DRAIN_MS', 10_000),
    databaseConnectTimeoutMs: intVar(env, 'DATABASE_CONNECT_TIMEOUT_MS', 3_000),
    cartAbandonmentCheckMs: Math.max(100, intVar(env, 'CART_ABANDONMENT_CHECK_MS', 60_000)),
    analyzeCheckMs: Math.max(100, intVar(env, 'ANALYZE_CHECK_MS', 15_000)),
    outboxRetentionDays: intVar(env, 'OUTBOX_RETENTION_DAYS', 7),
    deliveryTimeoutMs,
    deliveryLeaseMs,
    trustProxy: trustProxyVar(env, production),
    cors: {
      // Development defaults: the Medusa Next.js starter (8000) and a local admin dev server (5173).
      store: originList(env.STORE_CORS, production ? '' : 'http://localhost:8000'),
      admin: originList(env.ADMIN_CORS, production ? '' : 'http://localhost:5173'),
      auth: originList(env.AUTH_CORS, production ? '' : 'http://localhost:8000,http://localhost:5173'),
    },
    marketplaceRateLimit: intVar(env, 'MARKETPLACE_RATE_LIMIT', 60),
    webhookAllowPrivate: env.WEBHOOK_ALLOW_PRIVATE === 'true',
    federation: federationConfig(env),
    pluginRouteTimeoutMs: intVar(env, 'PLUGIN_ROUTE_TIMEOUT_MS', 10_000),
    pluginSandbox: {
      memoryMb: Math.max(16, intVar(env, 'PLUGIN_MEMORY_MB', 128)),
      callTimeoutMs: Math.max(1, intVar(env, 'PLUGIN_CALL_TIMEOUT_MS', 5_000)),
      maxCrashes: Math.max(1, intVar(env, 'PLUGIN_MAX_CRASHES', 5)),
      crashWindowMs: intVar(env, 'PLUGIN_CRASH_WINDOW_MS', 10 * 60_000),
      restartDelayMs: intVar(env, 'PLUGIN_RESTART_DELAY_MS', 1_000),
      runnerDir: env.PLUGIN_RUNNER_DIR || undefined,
    },
    providerTimeoutMs: intVar(env, 'PROVIDER_TIMEOUT_MS', 15_000),
    storefrontUrl: (env.STOREFRONT_URL || 'http://localhost:8000').replace(/\/+$/, ''),
    stripe: stripeConfig(env),
    amountUnits: env.AMOUNT_UNITS === 'major' ? 'major' : 'minor',
    storeLocales: originList(env.STORE_LOCALES || undefined, 'en-US'),
    storage: storageConfig(env, dataDir, (m) => new ConfigError(m)),
  };
  // The test provider's pay button issues licenses without money moving: never by accident in production.
  if (config.role === 'marketplace' && production && !config.stripe && env.MARKETPLACE_TEST_PAYMENTS !== 'true') {
    throw new ConfigError(
      'A production marketplace needs STRIPE_SECRET_KEY (or MARKETPLACE_TEST_PAYMENTS=true to accept test payments)',
    );
  }
  return config;
}
