import { createHash, createPublicKey, verify } from 'node:crypto';
import type { Ctx } from '../../platform/context.ts';
import { errors } from '../../platform/http/errors.ts';
import type { MarketplaceClient } from './client.ts';
import { recordSeenDelivery } from './queries.ts';
import { trustedMarketplaceKeys } from './signature.ts';

/** A signature older (or further in the future) than this is refused: a captured callback is useless after it. */
export const CALLBACK_MAX_AGE_S = 5 * 60;

export interface SignedCallback {
  /** X-Service-Signature: `t=<unix seconds>,v1=<hex Ed25519 signature over "<t>.<raw body>">`. */
  signature: string | undefined;
  deliveryId: string | undefined;
  keyId: string | undefined;
  rawBody: string;
}

function parseSignature(header: string | undefined): { t: number; v1: Buffer } | null {
  // One way to write each time: `t=0<t>` would sign the same bytes under another header.
  const m = /^t=(0|[1-9]\d{0,11}),v1=([0-9a-f]{128})$/.exec(header ?? '');
  return m ? { t: Number(m[1]), v1: Buffer.from(m[2], 'hex') } : null;
}

function ed25519(base64Raw: string) {
  return createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(base64Raw, 'base64').toString('base64url') },
    format: 'jwk',
  });
}

/**
 * Authenticates a license-issued callback: signed by a marketplace key this shop
 * trusts (configured or pinned), `t` within 5 minutes of the shop's clock either way, and never
 * accepted twice (the hash of the signed time and body is recorded until it could no longer pass
 * the age check).
 * Every refusal is the same 401, so a caller learns nothing about which check failed.
 */
export async function verifyMarketplaceCallback(
  ctx: Ctx,
  client: MarketplaceClient,
  cb: SignedCallback,
): Promise<void> {
  const parsed = parseSignature(cb.signature);
  if (!parsed) throw errors.unauthorized('unauthorized');
  const now = ctx.clock.now();
  const nowS = Math.floor(now.getTime() / 1000);
  if (Math.abs(nowS - parsed.t) > CALLBACK_MAX_AGE_S) throw errors.unauthorized('unauthorized');
  const trusted = await trustedMarketplaceKeys(ctx, client);
  const candidates = cb.keyId && trusted[cb.keyId] ? [trusted[cb.keyId]] : Object.values(trusted);
  const signed = Buffer.from(`${parsed.t}.${cb.rawBody}`, 'utf8');
  // Ed25519 verification does not short-circuit on the first differing byte: no timing oracle.
  if (!candidates.some((k) => verify(null, signed, ed25519(k), parsed.v1))) throw errors.unauthorized('unauthorized');
  const fresh = await recordSeenDelivery(
    ctx.db,
    {
      // Keyed on what was signed (time and body), not on how the header spells it.
      signature_hash: createHash('sha256').update(signed).digest('hex'),
      delivery_id: cb.deliveryId?.slice(0, 200) ?? null,
      expires_at: new Date((parsed.t + 2 * CALLBACK_MAX_AGE_S) * 1000),
    },
    now,
  );
  if (!fresh) throw errors.unauthorized('unauthorized');
}
