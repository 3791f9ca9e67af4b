import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseDurationSeconds } from './duration.ts';

export type ServiceRole = 'shop' | 'marketplace';

export interface Config {
  role: ServiceRole;
  production: boolean;
  host: string;
  port: number;
  publicUrl: string;
  dataDir: string;
  /** When set, PostgreSQL through a pg pool; otherwise embedded PGlite under dataDir. */
  databaseUrl?: string;
  redisUrl?: string;
  jwtSecret: string;
  jwtExpiresInSeconds: number;
  cookieSecret: string;
  encryptionKey: string;
  adminEmail?: string;
  adminPassword?: string;
  pluginsDir: string;
  logLevel: string;
  /** Failed logins allowed per email (and, ×4, per IP) in a 15-minute window before 429. */
  loginMaxFailures: number;
  /** Use X-Forwarded-For for the client address (only behind a proxy that sets it). */
  trustProxy: boolean;
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
  /** Marketplace role: Stripe Checkout instead of the built-in test payment provider. */
  stripe?: StripeConfig;
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
  return {
    JWT_SECRET: env.JWT_SECRET || stored.JWT_SECRET,
    COOKIE_SECRET: env.COOKIE_SECRET || stored.COOKIE_SECRET,
    ENCRYPTION_KEY: env.ENCRYPTION_KEY || stored.ENCRYPTION_KEY,
  };
}

function intVar(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new ConfigError(`${name} must be a non-negative integer, got "${raw}"`);
  return n;
}

function stripeConfig(env: Env): StripeConfig | undefined {
  if (!env.STRIPE_SECRET_KEY) return undefined;
  if (!env.STRIPE_WEBHOOK_SECRET) throw new ConfigError('STRIPE_WEBHOOK_SECRET must be set with STRIPE_SECRET_KEY (payments complete through its signed webhook)');
  let apiBase: StripeConfig['apiBase'];
  if (env.STRIPE_API_BASE) {
    const url = URL.canParse(env.STRIPE_API_BASE) ? new URL(env.STRIPE_API_BASE) : null;
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) throw new ConfigError(`STRIPE_API_BASE must be an http(s) URL, got "${env.STRIPE_API_BASE}"`);
    const protocol = url.protocol === 'http:' ? 'http' : 'https';
    apiBase = { protocol, host: url.hostname, port: Number(url.port) || (protocol === 'http' ? 80 : 443) };
  }
  return { secretKey: env.STRIPE_SECRET_KEY, webhookSecret: env.STRIPE_WEBHOOK_SECRET, apiBase };
}

function federationConfig(env: Env): FederationConfig | undefined {
  const url = env.SERVICE_FEDERATION_URL;
  const publishableKey = env.SERVICE_FEDERATION_PK;
  if (!url && !publishableKey) return undefined;
  if (!url || !publishableKey) throw new ConfigError('SERVICE_FEDERATION_URL and SERVICE_FEDERATION_PK must be set together');
  const parsed = URL.canParse(url) ? new URL(url) : null;
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) throw new ConfigError(`SERVICE_FEDERATION_URL must be an http(s) URL, got "${url}"`);
  const signingKey = env.SERVICE_FEDERATION_SIGNING_KEY || undefined;
  if (signingKey && Buffer.from(signingKey, 'base64').length !== 32) {
    throw new ConfigError('SERVICE_FEDERATION_SIGNING_KEY must be the base64 of a raw 32-byte Ed25519 public key');
  }
  return { url: url.replace(/\/+$/, ''), publishableKey, signingKey, timeoutMs: intVar(env, 'SERVICE_FEDERATION_TIMEOUT_MS', 10_000) };
}

function originList(raw: string | undefined, fallback: string): string[] {
  return (raw ?? fallback)
    .split(',')
    .map((o) => o.trim().replace(/\/$/, ''))
    .filter(Boolean);
}

export function loadConfig(env: Env = process.env): Config {
  const role = (env.SERVICE_ROLE || 'shop') as ServiceRole;
  if (role !== 'shop' && role !== 'marketplace') throw new ConfigError(`SERVICE_ROLE must be shop or marketplace, got "${role}"`);
  const production = env.NODE_ENV === 'production';
  const host = env.HOST || '127.0.0.1';
  const port = intVar(env, 'PORT', role === 'marketplace' ? 9100 : 9000);
  const dataDir = path.resolve(env.DATA_DIR || './.data');
  const expires = parseDurationSeconds(env.JWT_EXPIRES_IN || '24h');
  if (!expires) throw new ConfigError(`JWT_EXPIRES_IN must look like 24h, 1d, 90m or a number of seconds`);
  const secrets = loadSecrets(env, dataDir, production);
  const config: Config = {
    role,
    production,
    host,
    port,
    publicUrl: (env.PUBLIC_URL || `http://${host}:${port}`).replace(/\/$/, ''),
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    redisUrl: env.REDIS_URL || undefined,
    jwtSecret: secrets.JWT_SECRET,
    jwtExpiresInSeconds: expires,
    cookieSecret: secrets.COOKIE_SECRET,
    encryptionKey: secrets.ENCRYPTION_KEY,
    adminEmail: env.ADMIN_EMAIL || undefined,
    adminPassword: env.ADMIN_PASSWORD || undefined,
    pluginsDir: path.resolve(env.PLUGINS_DIR || './plugins'),
    logLevel: env.LOG_LEVEL || 'info',
    loginMaxFailures: intVar(env, 'LOGIN_MAX_FAILURES', 5),
    trustProxy: env.TRUST_PROXY === 'true',
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
    stripe: stripeConfig(env),
  };
  // The test provider's pay button issues licences without money moving: never by accident in production.
  if (config.role === 'marketplace' && production && !config.stripe && env.MARKETPLACE_TEST_PAYMENTS !== 'true') {
    throw new ConfigError('A production marketplace needs STRIPE_SECRET_KEY (or MARKETPLACE_TEST_PAYMENTS=true to accept test payments)');
  }
  return config;
}
