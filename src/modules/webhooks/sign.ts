import { createHmac } from 'node:crypto';

/**
 * The X-Service-Signature header value: `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`.
 * `body` must be the exact bytes sent; receivers check it with verify-signature.ts.
 */
export function signatureHeader(secret: string, at: Date, body: string | Buffer): string {
  const t = Math.floor(at.getTime() / 1000);
  const v1 = createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex');
  return `t=${t},v1=${v1}`;
}
