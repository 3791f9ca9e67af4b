import { createPublicKey, verify } from 'node:crypto';
import type { Ctx } from '../../platform/context.ts';
import type { MarketplaceClient } from './client.ts';
import { trustedMarketplaceKeys } from './signature.ts';

export interface RevocationEntry {
  sequence: number;
  kind: 'version' | 'item' | 'key';
  marketplace_id: string | null;
  version: string | null;
  key_id: string | null;
  severity: 'critical' | 'warning';
  reason: string;
  revoked_at: string;
}

export interface RevocationList {
  sequence: number;
  issued_at: string;
  revocations: RevocationEntry[];
}

/** Why a fetched list was not applied; the message is what the operator reads. */
export class RevocationListRefused extends Error {}

/**
 * The bytes the marketplace signed (marketplace/revocations/signed-list.ts writes the same): a
 * domain prefix, so an artifact signature can never pass for a list, then the JSON of the three
 * fields in this order. JSON.parse keeps the served key order, so re-serialising gives the bytes back.
 */
function signedText(list: RevocationList): string {
  const { sequence, issued_at, revocations } = list;
  return `emporium-revocations-v1\n${JSON.stringify({ sequence, issued_at, revocations })}`;
}

function wellFormed(body: unknown): body is RevocationList & { key_id: string; signature: string } {
  const b = body as Record<string, unknown> | null;
  return (
    !!b &&
    Number.isInteger(b.sequence) &&
    (b.sequence as number) >= 0 &&
    typeof b.issued_at === 'string' &&
    Array.isArray(b.revocations) &&
    typeof b.key_id === 'string' &&
    typeof b.signature === 'string' &&
    b.revocations.every(
      (e: Record<string, unknown>) =>
        e &&
        Number.isInteger(e.sequence) &&
        (e.severity === 'critical' || e.severity === 'warning') &&
        ['version', 'item', 'key'].includes(e.kind as string) &&
        typeof e.reason === 'string',
    )
  );
}

/**
 * Fetches the marketplace's revocation list and checks it before anything trusts it: signed with a
 * key this shop trusts (configured or pinned on first use) and not revoked, and not older than the
 * last list accepted (`minSequence`): a replayed list would silently un-revoke a version.
 */
export async function fetchRevocationList(
  ctx: Ctx,
  client: MarketplaceClient,
  minSequence: number,
  revokedKeys: string[],
): Promise<RevocationList> {
  const body = await client.getJson<unknown>('/store/marketplace/revocations');
  if (!wellFormed(body)) throw new RevocationListRefused('the revocation list is malformed');
  const trusted = await trustedMarketplaceKeys(ctx, client);
  const publicKey = trusted[body.key_id];
  if (!publicKey || revokedKeys.includes(body.key_id))
    throw new RevocationListRefused(
      `the revocation list is signed with key ${body.key_id}, which this shop does not trust`,
    );
  const key = createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(publicKey, 'base64').toString('base64url') },
    format: 'jwk',
  });
  const signature = Buffer.from(body.signature, 'base64');
  if (signature.length !== 64 || !verify(null, Buffer.from(signedText(body), 'utf8'), key, signature))
    throw new RevocationListRefused('the revocation list signature does not verify');
  if (body.sequence < minSequence)
    throw new RevocationListRefused(
      `the revocation list has sequence ${body.sequence}, below ${minSequence} already accepted (an old list replayed)`,
    );
  return { sequence: body.sequence, issued_at: body.issued_at, revocations: body.revocations };
}
