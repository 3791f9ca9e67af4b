import { createHmac, timingSafeEqual } from 'node:crypto';

export interface VerifyOptions {
  /** How old (or how far in the future) `t` may be; default 300 s: room for clock skew, too short to replay. */
  toleranceSeconds?: number;
  now?: Date;
}

/**
 * For receivers of Emporium webhooks: true when `header` (X-Service-Signature) carries a `v1`
 * HMAC-SHA256 of `"<t>.<rawBody>"` under `secret`, compared in constant time, and `t` is
 * within the tolerance. Pass the raw request body, not re-serialized JSON. Depends only on
 * node:crypto, so it can be copied into a receiver as is.
 */
export function verifySignature(
  rawBody: string | Buffer,
  header: string,
  secret: string,
  opts: VerifyOptions = {},
): boolean {
  const tolerance = opts.toleranceSeconds ?? 300;
  let t: number | undefined;
  const candidates: string[] = [];
  for (const part of String(header ?? '').split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't' && /^\d{1,12}$/.test(value)) t = Number(value);
    else if (key === 'v1' && /^[0-9a-f]{64}$/i.test(value)) candidates.push(value.toLowerCase());
  }
  if (t === undefined || candidates.length === 0) return false;
  const nowSeconds = Math.floor((opts.now ?? new Date()).getTime() / 1000);
  if (Math.abs(nowSeconds - t) > tolerance) return false;
  const expected = createHmac('sha256', secret).update(`${t}.`).update(rawBody).digest();
  // Several v1 entries let a sender sign with an old and a new secret during a rotation.
  return candidates.some((hex) => {
    const given = Buffer.from(hex, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
