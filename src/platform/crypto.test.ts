import { createCipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  decryptSecret,
  encryptionKeyId,
  encryptSecret,
  isCurrentSecret,
  registerPreviousEncryptionKey,
  secretKeyId,
} from './crypto.ts';

const KEY = 'test-encryption-key-0123456789abcdef';

/** A blob of the first format (`v1.<iv>.<ciphertext>.<tag>`, no key id), as stored before key ids. */
function v1Blob(configKey: string, plaintext: string): string {
  const key = Buffer.from(hkdfSync('sha256', configKey, 'emporium', 'secret-at-rest v1', 32));
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', iv, ct, cipher.getAuthTag()]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

describe('encryptSecret / decryptSecret', () => {
  it('round-trips, with a version prefix and key id and without the plaintext in the blob', () => {
    const blob = encryptSecret(KEY, 'whsec_top-secret ünïcode');
    expect(blob).toMatch(/^v2\.[\w-]{8}\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(secretKeyId(blob)).toBe(encryptionKeyId(KEY));
    expect(blob).not.toContain('top-secret');
    expect(decryptSecret(KEY, blob)).toBe('whsec_top-secret ünïcode');
  });

  it('uses a fresh IV each time', () => {
    const a = encryptSecret(KEY, 'same');
    const b = encryptSecret(KEY, 'same');
    expect(a).not.toBe(b);
    expect(a.split('.')[2]).not.toBe(b.split('.')[2]);
  });

  it('handles an empty plaintext', () => {
    expect(decryptSecret(KEY, encryptSecret(KEY, ''))).toBe('');
  });

  it('refuses another key, naming both key ids', () => {
    const blob = encryptSecret(KEY, 'secret');
    expect(() => decryptSecret('another-key', blob)).toThrow(
      `encrypted under key id ${encryptionKeyId(KEY)}, but ENCRYPTION_KEY is ${encryptionKeyId('another-key')}`,
    );
  });

  it('reads blobs of the previous key once it is registered, and only then', () => {
    const current = 'current-key-for-previous-test';
    const old = encryptSecret(KEY, 'written before the rotation');
    const legacy = v1Blob(KEY, 'written before key ids');
    expect(() => decryptSecret(current, old)).toThrow(/wrong key/);
    expect(() => decryptSecret(current, legacy)).toThrow(/wrong key/);
    registerPreviousEncryptionKey(current, KEY);
    try {
      expect(decryptSecret(current, old)).toBe('written before the rotation');
      expect(decryptSecret(current, legacy)).toBe('written before key ids');
      expect(secretKeyId(encryptSecret(current, 'x'))).toBe(encryptionKeyId(current)); // new ones: current key
      expect(isCurrentSecret(current, old)).toBe(false);
      expect(isCurrentSecret(current, legacy)).toBe(false);
    } finally {
      registerPreviousEncryptionKey(current, undefined);
    }
    expect(() => decryptSecret(current, old)).toThrow(/wrong key/);
  });

  it('still reads v1 blobs under the current key', () => {
    expect(decryptSecret(KEY, v1Blob(KEY, 'old format'))).toBe('old format');
  });

  it.each([
    ['ciphertext', 3],
    ['tag', 4],
    ['iv', 2],
  ])('detects a tampered %s', (_name, index) => {
    const parts = encryptSecret(KEY, 'a longer secret value').split('.');
    const bytes = Buffer.from(parts[index], 'base64url');
    bytes[0] ^= 0x01;
    parts[index] = bytes.toString('base64url');
    expect(() => decryptSecret(KEY, parts.join('.'))).toThrow();
  });

  it.each(['', 'plain', 'v2.a.b.c', 'v1.a.b', 'v1..x.', 'v3.a.b.c.d'])('rejects the malformed blob %j', (blob) => {
    expect(() => decryptSecret(KEY, blob)).toThrow(/unsupported secret format/);
  });

  it('refuses an empty key', () => {
    expect(() => encryptSecret('', 'x')).toThrow(/empty/);
  });
});
