import { describe, expect, it } from 'vitest';
import { decryptSecret, encryptSecret } from './crypto.ts';

const KEY = 'test-encryption-key-0123456789abcdef';

describe('encryptSecret / decryptSecret', () => {
  it('round-trips, with a version prefix and without the plaintext in the blob', () => {
    const blob = encryptSecret(KEY, 'whsec_top-secret ünïcode');
    expect(blob).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(blob).not.toContain('top-secret');
    expect(decryptSecret(KEY, blob)).toBe('whsec_top-secret ünïcode');
  });

  it('uses a fresh IV each time', () => {
    const a = encryptSecret(KEY, 'same');
    const b = encryptSecret(KEY, 'same');
    expect(a).not.toBe(b);
    expect(a.split('.')[1]).not.toBe(b.split('.')[1]);
  });

  it('handles an empty plaintext', () => {
    expect(decryptSecret(KEY, encryptSecret(KEY, ''))).toBe('');
  });

  it('refuses another key', () => {
    const blob = encryptSecret(KEY, 'secret');
    expect(() => decryptSecret('another-key', blob)).toThrow(/could not be decrypted/);
  });

  it.each([
    ['ciphertext', 2],
    ['tag', 3],
    ['iv', 1],
  ])('detects a tampered %s', (_name, index) => {
    const parts = encryptSecret(KEY, 'a longer secret value').split('.');
    const bytes = Buffer.from(parts[index], 'base64url');
    bytes[0] ^= 0x01;
    parts[index] = bytes.toString('base64url');
    expect(() => decryptSecret(KEY, parts.join('.'))).toThrow();
  });

  it.each(['', 'plain', 'v2.a.b.c', 'v1.a.b', 'v1..x.'])('rejects the malformed blob %j', (blob) => {
    expect(() => decryptSecret(KEY, blob)).toThrow(/unsupported secret format/);
  });

  it('refuses an empty key', () => {
    expect(() => encryptSecret('', 'x')).toThrow(/empty/);
  });
});
