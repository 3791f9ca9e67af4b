import { sign } from 'node:crypto';
import type { SigningKey } from '../keys/signing-keys.ts';

/**
 * X-Service-Signature of a license-issued callback:
 * `t=<unix seconds>,v1=<hex Ed25519 signature over "<t>.<raw body>">`, made with the
 * marketplace's active key, so a shop checks it with the key it pinned from /store/marketplace/keys.
 */
export function callbackSignature(key: SigningKey, at: Date, body: string): string {
  const t = Math.floor(at.getTime() / 1000);
  const v1 = sign(null, Buffer.from(`${t}.${body}`, 'utf8'), key.privateKey).toString('hex');
  return `t=${t},v1=${v1}`;
}
