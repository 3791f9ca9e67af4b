import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/** Signed artifact URLs live 15 minutes: a shop asks for a fresh one per install, so a leaked URL soon stops working. */
export const DOWNLOAD_URL_TTL_SECONDS = 15 * 60;

const keys = new Map<string, Buffer>();

/** A key of its own, derived from ENCRYPTION_KEY, so URL signing never reuses the at-rest key. */
function urlKey(encryptionKey: string): Buffer {
  let key = keys.get(encryptionKey);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', encryptionKey, 'emporium', 'marketplace download url v1', 32));
    keys.set(encryptionKey, key);
  }
  return key;
}

export function artifactPath(marketplaceId: string, version: string): string {
  return `/store/marketplace/artifacts/${marketplaceId}/${version}`;
}

function mac(encryptionKey: string, path: string, expires: number): string {
  return createHmac('sha256', urlKey(encryptionKey)).update(`${path}?expires=${expires}`).digest('hex');
}

/** `{PUBLIC_URL}/store/marketplace/artifacts/<id>/<version>?expires=<unix>&signature=<hex HMAC>`. */
export function signedArtifactUrl(opts: {
  publicUrl: string;
  encryptionKey: string;
  now: Date;
  marketplaceId: string;
  version: string;
}): {
  url: string;
  expiresAt: Date;
} {
  const expires = Math.floor(opts.now.getTime() / 1000) + DOWNLOAD_URL_TTL_SECONDS;
  const path = artifactPath(opts.marketplaceId, opts.version);
  return {
    url: `${opts.publicUrl}${path}?expires=${expires}&signature=${mac(opts.encryptionKey, path, expires)}`,
    expiresAt: new Date(expires * 1000),
  };
}

/**
 * Checks a presented URL: the HMAC first (constant time), then the expiry, so a forged
 * expiry is "invalid", not "expired".
 */
export function checkArtifactUrl(opts: {
  encryptionKey: string;
  now: Date;
  path: string;
  expires?: string;
  signature?: string;
}): 'ok' | 'invalid' | 'expired' {
  if (!opts.expires || !/^\d{1,12}$/.test(opts.expires) || !opts.signature || !/^[0-9a-f]{64}$/.test(opts.signature))
    return 'invalid';
  const expected = Buffer.from(mac(opts.encryptionKey, opts.path, Number(opts.expires)), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(opts.signature, 'hex'))) return 'invalid';
  return Math.floor(opts.now.getTime() / 1000) > Number(opts.expires) ? 'expired' : 'ok';
}
