import { createHash, randomBytes } from 'node:crypto';
import type { TxCtx } from '../../platform/context.ts';
import { errors } from '../../platform/http/errors.ts';
import { newId } from '../../platform/ids.ts';
import { insertResetToken, spendResetToken, spendResetTokensOf } from './queries.ts';

/** How long an emailed reset link works (Medusa's reset tokens last 15 minutes too). */
export const RESET_TOKEN_TTL_MS = 15 * 60_000;

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

export const invalidResetToken = () => errors.unauthorized('reset_token_invalid');

/** A new single-use token for this identity (256 random bits); only its hash is stored. */
export async function createResetToken(
  tctx: TxCtx,
  actorType: 'user' | 'customer',
  identityId: string,
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const now = tctx.clock.now();
  await insertResetToken(tctx.tx, {
    id: newId('prt'),
    actor_type: actorType,
    identity_id: identityId,
    token_hash: hashOf(token),
    expires_at: new Date(now.getTime() + RESET_TOKEN_TTL_MS),
    created_at: now,
    used_at: null,
  });
  return token;
}

/**
 * Uses a token once: the identity it was issued for, or 401. Every other open token of that
 * identity is used up with it, so an older emailed link stops working too.
 */
export async function consumeResetToken(tctx: TxCtx, actorType: 'user' | 'customer', token: string): Promise<string> {
  const now = tctx.clock.now();
  const identityId = await spendResetToken(tctx.tx, actorType, hashOf(token), now);
  if (!identityId) throw invalidResetToken();
  await spendResetTokensOf(tctx.tx, actorType, identityId, now);
  return identityId;
}
