import { createHash, createPublicKey, verify } from 'node:crypto';
import type { Ctx } from '../../platform/context.ts';
import { getSetting, setSetting } from '../settings/service.ts';
import type { MarketplaceClient } from './client.ts';
import { findRevocationList } from './queries.ts';

/** Setting holding the keys pinned on first use: `{ "<marketplace url>": { "<key_id>": "<base64 key>" } }`. */
export const PINNED_KEYS_SETTING = 'federation.pinned_keys';

/** Why a downloaded artifact is not trusted; the message lands in the plugin's `error`. */
export class VerificationError extends Error {}

export interface SignedArtifact {
  marketplaceId: string;
  version: string;
  sha256: string;
  /** base64 Ed25519 signature over `<marketplace_id>@<version>:<sha256>`. */
  signature: string;
  keyId: string;
}

interface KeysResponse {
  keys?: { key_id?: unknown; alg?: unknown; public_key?: unknown }[];
}

/** Same derivation as the marketplace's key ids: the first 16 hex of sha256(raw key). */
function keyIdOf(raw: Buffer): string {
  return createHash('sha256').update(raw).digest('hex').slice(0, 16);
}

async function readPins(ctx: Ctx): Promise<Record<string, Record<string, string>>> {
  const raw = await getSetting(ctx, PINNED_KEYS_SETTING);
  if (!raw) return {};
  try {
    return JSON.parse(raw) as Record<string, Record<string, string>>;
  } catch {
    throw new VerificationError(`Setting ${PINNED_KEYS_SETTING} is not valid JSON; fix or delete it`);
  }
}

/** The marketplace's published keys, pinned for good the first time they are seen. */
async function pinnedKeys(ctx: Ctx, client: MarketplaceClient): Promise<Record<string, string>> {
  const pins = await readPins(ctx);
  if (pins[client.url]) return pins[client.url];
  const { keys } = await client.getJson<KeysResponse>('/store/marketplace/keys');
  const fresh: Record<string, string> = {};
  for (const k of keys ?? []) {
    if (
      k.alg === 'Ed25519' &&
      typeof k.key_id === 'string' &&
      typeof k.public_key === 'string' &&
      Buffer.from(k.public_key, 'base64').length === 32
    ) {
      fresh[k.key_id] = k.public_key;
    }
  }
  if (!Object.keys(fresh).length)
    throw new VerificationError('Marketplace publishes no Ed25519 signing key at /store/marketplace/keys');
  await setSetting(ctx, PINNED_KEYS_SETTING, JSON.stringify({ ...pins, [client.url]: fresh }));
  ctx.log.info({ marketplace: client.url, keys: Object.keys(fresh) }, 'pinned marketplace signing keys');
  return fresh;
}

/**
 * The marketplace keys this shop trusts, `key_id` → base64 raw Ed25519 key: the configured
 * SERVICE_FEDERATION_SIGNING_KEY, or the keys pinned on first use (fetched and pinned now if
 * none are). Also what a signed marketplace callback must verify against.
 */
export async function trustedMarketplaceKeys(ctx: Ctx, client: MarketplaceClient): Promise<Record<string, string>> {
  if (client.fed.signingKey) return { [keyIdOf(Buffer.from(client.fed.signingKey, 'base64'))]: client.fed.signingKey };
  return pinnedKeys(ctx, client);
}

/**
 * Checks the marketplace's Ed25519 signature over `<marketplace_id>@<version>:<sha256>` with the
 * configured key (SERVICE_FEDERATION_SIGNING_KEY) or the key pinned on first use. A key that is
 * not the trusted one fails closed: a marketplace whose key changed must be re-trusted by hand.
 */
export async function verifyArtifactSignature(ctx: Ctx, client: MarketplaceClient, a: SignedArtifact): Promise<void> {
  const trusted = await trustedMarketplaceKeys(ctx, client);
  // A key the marketplace's signed revocation list revoked signs nothing this shop installs.
  const revoked = (await findRevocationList(ctx.db, client.url))?.revoked_keys ?? [];
  if (revoked.includes(a.keyId))
    throw new VerificationError(
      `${a.marketplaceId}@${a.version} is signed with key ${a.keyId}, which the marketplace revoked`,
    );
  const publicKey = trusted[a.keyId];
  if (!publicKey) {
    const how = client.fed.signingKey
      ? 'set SERVICE_FEDERATION_SIGNING_KEY to the new key'
      : `delete the setting ${PINNED_KEYS_SETTING} to pin the new key`;
    throw new VerificationError(
      `Marketplace signing key changed: the artifact is signed with key ${a.keyId}, not the trusted key ${Object.keys(trusted).join(', ')}. ` +
        `If the marketplace rotated its key on purpose, ${how}`,
    );
  }
  const key = createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(publicKey, 'base64').toString('base64url') },
    format: 'jwk',
  });
  const text = `${a.marketplaceId}@${a.version}:${a.sha256}`;
  const signature = Buffer.from(a.signature, 'base64');
  if (signature.length !== 64 || !verify(null, Buffer.from(text, 'utf8'), key, signature)) {
    throw new VerificationError(
      `Signature check failed: ${a.marketplaceId}@${a.version} is not signed by the marketplace key ${a.keyId}`,
    );
  }
}
