import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseDurationSeconds } from '../duration.ts';
import { ConfigError, type Env } from './env.ts';

/** Signing and encryption secrets, and their rotation (docs/configuration.md "Secrets and sign-in"). */
export interface SecretsConfig {
  jwtSecret: string;
  /** JWT_SECRET_PREVIOUS: the secret being rotated out; tokens it signed verify until it is removed. */
  jwtSecretPrevious?: string;
  jwtExpiresInSeconds: number;
  cookieSecret: string;
  /** COOKIE_SECRET_PREVIOUS: cookies it signed are still read until it is removed; new ones use COOKIE_SECRET. */
  cookieSecretPrevious?: string;
  encryptionKey: string;
  /** ENCRYPTION_KEY_PREVIOUS: the key being rotated out; secrets it encrypted still decrypt (platform/crypto.ts). */
  encryptionKeyPrevious?: string;
}

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

export function secretsConfig(env: Env, dataDir: string, production: boolean): SecretsConfig {
  const expires = parseDurationSeconds(env.JWT_EXPIRES_IN || '24h');
  if (!expires) throw new ConfigError(`JWT_EXPIRES_IN must look like 24h, 1d, 90m or a number of seconds`);
  const secrets = loadSecrets(env, dataDir, production);
  return {
    jwtSecret: secrets.JWT_SECRET,
    jwtSecretPrevious: env.JWT_SECRET_PREVIOUS || undefined,
    jwtExpiresInSeconds: expires,
    cookieSecret: secrets.COOKIE_SECRET,
    cookieSecretPrevious: env.COOKIE_SECRET_PREVIOUS || undefined,
    encryptionKey: secrets.ENCRYPTION_KEY,
    encryptionKeyPrevious: env.ENCRYPTION_KEY_PREVIOUS || undefined,
  };
}
