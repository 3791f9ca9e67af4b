import path from 'node:path';
import { isatty } from 'node:tty';
import { type BackgroundWorkConfig, backgroundWorkConfig } from './config/background-work.ts';
import { type ClientsConfig, clientsConfig } from './config/clients.ts';
import { type DatabaseConfig, databaseConfig } from './config/database.ts';
import { ConfigError, type Env, intVar, originList } from './config/env.ts';
import { type FederationConfig, federationConfig } from './config/federation.ts';
import { type MarketplaceConfig, marketplaceConfig } from './config/marketplace.ts';
import { type PluginsConfig, pluginsConfig } from './config/plugins.ts';
import { type RateLimitConfig, rateLimitConfig } from './config/rate-limits.ts';
import { type RetentionConfig, retentionConfig } from './config/retention.ts';
import { type SecretsConfig, secretsConfig } from './config/secrets.ts';
import { type StripeConfig, stripeConfig } from './config/stripe.ts';
import { registerPreviousEncryptionKey } from './crypto.ts';
import { storageConfig, type StorageConfig } from './storage-config.ts';

/**
 * The whole configuration, read from the environment once at start (docs/configuration.md lists
 * every variable). The server's own settings are here; each group of settings that configures
 * one thing (secrets, database, rate limits, retention, background work, plugins, federation,
 * marketplace, Stripe, storage) is read by its part in `config/` (and storage-config.ts), and the parts'
 * fields are spread into one flat object, so `config.auditRetentionDays` reads as before.
 */

export { ConfigError } from './config/env.ts';
export { DEFAULT_PGLITE_SHARED_BUFFERS } from './config/database.ts';
export type { FederationConfig } from './config/federation.ts';
export type { PluginSandboxConfig } from './config/plugins.ts';
export type { StripeConfig } from './config/stripe.ts';

export type ServiceRole = 'shop' | 'marketplace';

export interface Config
  extends SecretsConfig,
    DatabaseConfig,
    RateLimitConfig,
    ClientsConfig,
    RetentionConfig,
    BackgroundWorkConfig,
    PluginsConfig,
    MarketplaceConfig {
  role: ServiceRole;
  production: boolean;
  host: string;
  port: number;
  publicUrl: string;
  dataDir: string;
  adminEmail?: string;
  adminPassword?: string;
  logLevel: string;
  /** LOG_REQUESTS=true: a log line as each request starts and completes (off by default: it costs throughput). */
  logRequests: boolean;
  /** LOG_FORMAT: JSON lines for log collectors, or pino-pretty's readable lines for a person at a terminal. */
  logFormat: 'json' | 'pretty';
  /** On SIGTERM, how long requests in flight may take to finish before the process closes anyway. */
  shutdownDrainMs: number;
  /** Shop: the marketplace it federates with (`SERVICE_FEDERATION_URL` + `_PK`); absent = local plugins only. */
  federation?: FederationConfig;
  /** Where shoppers reset a forgotten password: the emailed link is `<STOREFRONT_URL>/reset-password?token=…&email=…`. */
  storefrontUrl: string;
  /** Marketplace role: Stripe Checkout instead of the built-in test payment provider. */
  stripe?: StripeConfig;
  /** AMOUNT_UNITS: `minor` (integers, 1999 = €19.99, the default) or `major` (Medusa v2's 19.99). */
  amountUnits: 'minor' | 'major';
  /** STORE_LOCALES: languages `GET /store/locales` offers (BCP 47 codes). */
  storeLocales: string[];
  /** Uploaded files: local disk (`DATA_DIR/uploads`, the default) or an S3-compatible bucket. */
  storage: StorageConfig;
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
  const secrets = secretsConfig(env, dataDir, production);
  const rateLimits = rateLimitConfig(env, production);
  const backgroundWork = backgroundWorkConfig(env);
  if (env.LOG_FORMAT && !['json', 'pretty'].includes(env.LOG_FORMAT))
    throw new ConfigError(`LOG_FORMAT must be json or pretty, got "${env.LOG_FORMAT}"`);
  if (env.AMOUNT_UNITS && !['minor', 'major'].includes(env.AMOUNT_UNITS))
    throw new ConfigError(`AMOUNT_UNITS must be minor or major, got "${env.AMOUNT_UNITS}"`);
  const config: Config = {
    role,
    production,
    host,
    port,
    publicUrl: (env.PUBLIC_URL || defaultPublicUrl(host, port)).replace(/\/$/, ''),
    dataDir,
    ...databaseConfig(env),
    ...secrets,
    adminEmail: env.ADMIN_EMAIL || undefined,
    adminPassword: env.ADMIN_PASSWORD || undefined,
    logLevel: env.LOG_LEVEL || 'info',
    logRequests: env.LOG_REQUESTS === 'true',
    logFormat: (env.LOG_FORMAT as Config['logFormat']) || (stdoutIsTerminal ? 'pretty' : 'json'),
    ...rateLimits,
    shutdownDrainMs: intVar(env, 'SHUTDOWN_DRAIN_MS', 10_000),
    ...retentionConfig(env),
    ...backgroundWork,
    ...clientsConfig(env, production),
    federation: federationConfig(env),
    ...pluginsConfig(env),
    ...marketplaceConfig(env),
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
  registerPreviousEncryptionKey(config.encryptionKey, config.encryptionKeyPrevious);
  return config;
}

/**
 * `localhost` for a server on this machine: Medusa's Next.js starter lets its image optimizer load
 * `localhost` only, so image URLs with 127.0.0.1 would not show there.
 */
function defaultPublicUrl(host: string, port: number): string {
  const local = ['127.0.0.1', '0.0.0.0', '::', '::1', 'localhost'].includes(host);
  return `http://${local ? 'localhost' : host.includes(':') ? `[${host}]` : host}:${port}`;
}
