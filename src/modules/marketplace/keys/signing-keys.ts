import { createHash, createPrivateKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import type { Ctx } from '../../../platform/context.ts';
import { decryptSecret, encryptSecret } from '../../../platform/crypto.ts';
import * as q from './queries.ts';

export interface SigningKey {
  keyId: string;
  /** base64 of the raw 32-byte Ed25519 public key. */
  publicKey: string;
  privateKey: KeyObject;
}

export interface PublishedKey {
  key_id: string;
  alg: 'Ed25519';
  public_key: string;
  /** Set once the operator revoked it: shops refuse what it signs. */
  revoked_at: string | null;
}

/** First 16 hex characters of sha256 over the raw public key: short, stable, derivable by anyone. */
export function keyIdOf(rawPublicKey: Buffer): string {
  return createHash('sha256').update(rawPublicKey).digest('hex').slice(0, 16);
}

function generateRow(encryptionKey: string, now: Date): q.SigningKeyRow {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url');
  const pkcs8 = privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64');
  return {
    key_id: keyIdOf(raw),
    public_key: raw.toString('base64'),
    private_key_encrypted: encryptSecret(encryptionKey, pkcs8),
    active: true,
    created_at: now,
    revoked_at: null,
  };
}

/**
 * The marketplace's active Ed25519 key, generated on first use and kept (encrypted with
 * ENCRYPTION_KEY). Concurrent first starts insert one key each; the unique "active" index
 * keeps the first and both read it back. Not cached: a database reset must not leave a
 * process signing with a key nobody can fetch from /store/marketplace/keys.
 */
export async function ensureSigningKey(ctx: Ctx, encryptionKey: string): Promise<SigningKey> {
  let row = await q.findActiveKey(ctx.db);
  if (!row) {
    await q.insertActiveKeyIfNone(ctx.db, generateRow(encryptionKey, ctx.clock.now()));
    row = await q.findActiveKey(ctx.db);
    if (!row) throw new Error('marketplace signing key could not be created');
  }
  const der = Buffer.from(decryptSecret(encryptionKey, row.private_key_encrypted), 'base64');
  return {
    keyId: row.key_id,
    publicKey: row.public_key,
    privateKey: createPrivateKey({ key: der, format: 'der', type: 'pkcs8' }),
  };
}

/** The text a version's signature covers: `<marketplace_id>@<version>:<sha256>`. */
export function signedText(marketplaceId: string, version: string, sha256: string): string {
  return `${marketplaceId}@${version}:${sha256}`;
}

/** base64 of the 64-byte Ed25519 signature over the UTF-8 text. */
export function signText(key: SigningKey, text: string): string {
  return sign(null, Buffer.from(text, 'utf8'), key.privateKey).toString('base64');
}

/** Every key, retired ones included, so signatures made before a rotation still verify. */
export async function publishedKeys(ctx: Ctx): Promise<PublishedKey[]> {
  return (await q.listKeyRows(ctx.db)).map((r) => ({
    key_id: r.key_id,
    alg: 'Ed25519' as const,
    public_key: r.public_key,
    revoked_at: r.revoked_at?.toISOString() ?? null,
  }));
}
