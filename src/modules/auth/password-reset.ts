import { inTx, type Ctx, type TxCtx } from '../../platform/context.ts';
import type { Providers } from '../../platform/providers.ts';
import { queueMessage } from '../messaging/queue.ts';
import { endSessionsOfIdentity } from '../sessions/service.ts';
import type { LoginLimiter } from './login-limiter.ts';
import { hashPassword } from './password.ts';
import { consumeResetToken, createResetToken } from './reset-tokens.ts';
import { userAuthIdentityId } from './tokens.ts';

export interface ResetDeps {
  providers: Providers;
  encryptionKey: string;
  limiter: LoginLimiter;
}

type Actor = 'user' | 'customer';

/**
 * `POST /auth/{actor}/emailpass/reset-password`: emails a link with a single-use token to a login
 * that exists, through the installed notification provider (template `auth.password_reset`; the
 * link is kept encrypted and out of the admin's delivery history). The answer is the same 201
 * whether the email is known or not, and each email and IP may ask a few times per 15 minutes.
 */
export async function requestPasswordReset(
  ctx: Ctx,
  deps: ResetDeps,
  input: {
    actor: Actor;
    email: string;
    ip: string;
    identity: { id: string; email: string } | undefined;
    link: (token: string, email: string) => string;
  },
): Promise<void> {
  const scope = `reset:${input.actor}`;
  await deps.limiter.take(scope, input.email, input.ip);
  const identity = input.identity;
  if (!identity) return;
  await inTx(ctx, async (tctx) => {
    const token = await createResetToken(tctx, input.actor, identity.id);
    await queueMessage(tctx, deps, {
      to: identity.email,
      template: 'auth.password_reset',
      data: { email: identity.email, actor_type: input.actor },
      secretData: { reset_url: input.link(token, identity.email) },
      resource: { type: input.actor, id: identity.id },
    });
  });
}

/**
 * `POST /auth/{actor}/emailpass/update`: the token (once, within 15 minutes) sets a new password.
 * Whoever held the old one is signed out: `setHash` raises the login's token version (every
 * token issued before is refused from then on), and every session of the login is deleted, in
 * the same transaction.
 */
export async function updatePasswordWithToken(
  ctx: Ctx,
  actor: Actor,
  token: string,
  password: string,
  setHash: (tctx: TxCtx, identityId: string, hash: string) => Promise<void>,
): Promise<{ success: true }> {
  const hash = await hashPassword(password);
  await inTx(ctx, async (tctx) => {
    const identityId = await consumeResetToken(tctx, actor, token);
    await setHash(tctx, identityId, hash);
    await endSessionsOfIdentity(tctx, actor, actor === 'user' ? userAuthIdentityId(identityId) : identityId);
  });
  return { success: true };
}
