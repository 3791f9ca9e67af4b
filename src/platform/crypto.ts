import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Secrets at rest (webhook signing secrets, plugin secrets, license keys, signing keys): AES-256-GCM
 * under a key derived from ENCRYPTION_KEY. Blob format: `v2.<key id>.<iv>.<ciphertext>.<tag>`, each
 * part base64url; the key id names the key that wrote it, so during a rotation (ENCRYPTION_KEY_PREVIOUS,
 * `emporium rotate-encryption-key`) a reader picks the right key and a wrong key fails with a clear
 * message. Blobs of the older `v1.<iv>.<ciphertext>.<tag>` format (no key id) still decrypt: the
 * current key is tried, then the previous one.
 */
const VERSION = 'v2';
const IV_BYTES = 12;
const TAG_BYTES = 16;

interface DerivedKey {
  aes: Buffer;
  id: string;
}

const derived = new Map<string, DerivedKey>();
/**
 * ENCRYPTION_KEY → ENCRYPTION_KEY_PREVIOUS, registered by loadConfig. Kept here, keyed by the
 * current key, so the twenty call sites that pass `config.encryptionKey` read under either key
 * during a rotation without each carrying a second value.
 */
const previousKeys = new Map<string, string>();

/** HKDF-SHA256 of the configured string: any length of ENCRYPTION_KEY gives a uniform 32-byte key. */
function keyOf(configKey: string): DerivedKey {
  let key = derived.get(configKey);
  if (!key) {
    if (!configKey) throw new Error('encryption key is empty');
    const aes = Buffer.from(hkdfSync('sha256', configKey, 'emporium', 'secret-at-rest v1', 32));
    // A public fingerprint of the key, derived separately so it reveals nothing of the AES key.
    const id = Buffer.from(hkdfSync('sha256', configKey, 'emporium', 'secret-at-rest key id', 6)).toString('base64url');
    key = { aes, id };
    derived.set(configKey, key);
  }
  return key;
}

/** The key id written into blobs encrypted under this ENCRYPTION_KEY (8 characters, safe to log). */
export function encryptionKeyId(configKey: string): string {
  return keyOf(configKey).id;
}

/** Blobs written under `previous` keep decrypting wherever `current` is passed (null forgets it). */
export function registerPreviousEncryptionKey(current: string, previous: string | undefined): void {
  if (previous && previous !== current) previousKeys.set(current, previous);
  else previousKeys.delete(current);
}

export function encryptSecret(configKey: string, plaintext: string): string {
  const key = keyOf(configKey);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key.aes, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, key.id, ...[iv, ciphertext, cipher.getAuthTag()].map((p) => p.toString('base64url'))].join('.');
}

function open(key: DerivedKey, iv: Buffer, ciphertext: Buffer, tag: Buffer): string | null {
  const decipher = createDecipheriv('aes-256-gcm', key.aes, iv, { authTagLength: TAG_BYTES });
  decipher.setAuthTag(tag);
  try {
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

/** The key id a blob was written under (null for v1 blobs, which carry none). */
export function secretKeyId(blob: string): string | null {
  const parts = blob.split('.');
  return parts[0] === VERSION && parts.length === 5 ? parts[1] : null;
}

/** True when the blob was written under this key in the current format (nothing to re-encrypt). */
export function isCurrentSecret(configKey: string, blob: string): boolean {
  return secretKeyId(blob) === keyOf(configKey).id;
}

/**
 * Decrypts under `configKey`, or under the ENCRYPTION_KEY_PREVIOUS registered for it. Throws when
 * the blob is malformed, was encrypted under neither key, or was altered.
 */
export function decryptSecret(configKey: string, blob: string): string {
  const parts = blob.split('.');
  const v2 = parts[0] === VERSION && parts.length === 5;
  if (!v2 && !(parts[0] === 'v1' && parts.length === 4)) throw new Error('unsupported secret format');
  const [iv, ciphertext, tag] = parts.slice(v2 ? 2 : 1).map((p) => Buffer.from(p, 'base64url'));
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new Error('unsupported secret format');
  const previous = previousKeys.get(configKey);
  const candidates = [keyOf(configKey), ...(previous ? [keyOf(previous)] : [])];
  if (v2) {
    const key = candidates.find((k) => k.id === parts[1]);
    if (!key)
      throw new Error(
        `secret could not be decrypted: it was encrypted under key id ${parts[1]}, but ENCRYPTION_KEY is ${candidates[0].id}${previous ? ` and ENCRYPTION_KEY_PREVIOUS is ${candidates[1].id}` : ''} (wrong key)`,
      );
    const plain = open(key, iv, ciphertext, tag);
    if (plain === null) throw new Error('secret could not be decrypted (wrong key or altered data)');
    return plain;
  }
  for (const key of candidates) {
    const plain = open(key, iv, ciphertext, tag);
    if (plain !== null) return plain;
  }
  throw new Error('secret could not be decrypted (wrong key or altered data)');
}
