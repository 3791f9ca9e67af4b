import { ConfigError, type Env, intVar } from './env.ts';

/** Shop: the marketplace it federates with (docs/configuration.md "Federation (shop side)"). */
export interface FederationConfig {
  /** Base URL of the marketplace, without a trailing slash. */
  url: string;
  /** Sent as `x-publishable-api-key` on feed calls. */
  publishableKey: string;
  /** base64 raw 32-byte Ed25519 key to trust instead of pinning the marketplace's key on first use. */
  signingKey?: string;
  /** Every call to the marketplace gives up after this long (502 to the admin). */
  timeoutMs: number;
  /** How often the shop fetches the marketplace's signed revocation list (and once at start). */
  revocationPollMs: number;
}

/** `SERVICE_FEDERATION_URL` + `_PK`; absent = local plugins only. */
export function federationConfig(env: Env): FederationConfig | undefined {
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
    revocationPollMs: intVar(env, 'SERVICE_FEDERATION_REVOCATION_POLL_MINUTES', 15) * 60_000,
  };
}
