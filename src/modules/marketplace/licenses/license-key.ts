import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import type { SigningKey } from '../keys/signing-keys.ts';

/** Crockford's base32 alphabet (no I, L, O, U), upper case: easy to read aloud and type. */
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const KEY_CHARS = 26;

/**
 * `lic_` + 26 Crockford base32 characters from the CSPRNG (130 bits). 32 divides 256, so taking
 * the low 5 bits of each random byte picks every character with equal probability.
 */
export function newLicenseKey(): string {
  const bytes = randomBytes(KEY_CHARS);
  let key = 'lic_';
  for (const b of bytes) key += CROCKFORD[b & 31];
  return key;
}

export interface TokenClaims {
  marketplace_id: string;
  instance_id: string;
  tier: string;
  expiresAt: Date;
}

/**
 * The verify answer's offline proof: a compact JWS, EdDSA with the marketplace's
 * Ed25519 key (`kid` = key_id from /store/marketplace/keys), claims marketplace_id,
 * instance_id, tier and exp (the license's expiry), plus iat and iss.
 */
export function licenseToken(key: SigningKey, issuer: string, claims: TokenClaims, now: Date): Promise<string> {
  return new SignJWT({ marketplace_id: claims.marketplace_id, instance_id: claims.instance_id, tier: claims.tier })
    .setProtectedHeader({ alg: 'EdDSA', kid: key.keyId, typ: 'JWT' })
    .setIssuer(issuer)
    .setIssuedAt(Math.floor(now.getTime() / 1000))
    .setExpirationTime(Math.floor(claims.expiresAt.getTime() / 1000))
    .sign(key.privateKey);
}
