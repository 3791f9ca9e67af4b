import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Secrets at rest (webhook signing secrets, plugin secrets): AES-256-GCM under a key derived
 * from ENCRYPTION_KEY. Blob format: `v1.<iv>.<ciphertext>.<tag>`, each part base64url. The
 * version prefix lets a later format (or key rotation) coexist with stored v1 blobs.
 */
const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

const derived = new Map<string, Buffer>();

/** HKDF-SHA256 of the configured string: any length of ENCRYPTION_KEY gives a uniform 32-byte key. */
function aesKey(configKey: string): Buffer {
  let key = derived.get(configKey);
  if (!key) {
    if (!configKey) throw new Error('encryption key is empty');
    key = Buffer.from(hkdfSync('sha256', configKey, 'emporium', 'secret-at-rest v1', 32));
    derived.set(configKey, key);
  }
  return key;
}

export function encryptSecret(configKey: string, plaintext: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', aesKey(configKey), iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, iv, ciphertext, cipher.getAuthTag()]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

/** Throws when the blob is malformed, was encrypted under another key, or was altered. */
export function decryptSecret(configKey: string, blob: string): string {
  const parts = blob.split('.');
  if (parts.length !== 4 || parts[0] !== VERSION) throw new Error('unsupported secret format');
  const [iv, ciphertext, tag] = parts.slice(1).map((p) => Buffer.from(p, 'base64url'));
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new Error('unsupported secret format');
  const decipher = createDecipheriv('aes-256-gcm', aesKey(configKey), iv, { authTagLength: TAG_BYTES });
  decipher.setAuthTag(tag);
  try {
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
  } catch {
    throw new Error('secret could not be decrypted (wrong key or altered data)');
  }
}
