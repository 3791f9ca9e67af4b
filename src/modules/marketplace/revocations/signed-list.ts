import type { Ctx } from '../../../platform/context.ts';
import { ensureSigningKey, signText } from '../keys/signing-keys.ts';
import * as q from './queries.ts';
import { revocationJson } from './revocations.ts';

/**
 * The text a revocation list's signature covers: a domain prefix (so no artifact or callback
 * signature can pass for a list) and the JSON of `{ sequence, issued_at, revocations }` exactly
 * as served. A shop re-serialises the parsed fields in that order and checks the same bytes.
 */
export function revocationListText(body: { sequence: number; issued_at: string; revocations: unknown[] }): string {
  const { sequence, issued_at, revocations } = body;
  return `emporium-revocations-v1\n${JSON.stringify({ sequence, issued_at, revocations })}`;
}

/**
 * The whole list, signed now with the active key. `sequence` is the newest entry's number:
 * it only grows, so a shop that has seen N refuses any list below N (a replayed, older list).
 */
export async function signedRevocationList(ctx: Ctx, encryptionKey: string) {
  const rows = await q.listRevocations(ctx.db);
  const body = {
    sequence: rows.at(-1)?.sequence ?? 0,
    issued_at: ctx.clock.now().toISOString(),
    revocations: rows.map(revocationJson),
  };
  const key = await ensureSigningKey(ctx, encryptionKey);
  return { ...body, key_id: key.keyId, signature: signText(key, revocationListText(body)) };
}
