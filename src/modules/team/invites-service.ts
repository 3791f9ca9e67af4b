import { createHash, randomBytes } from 'node:crypto';
import { type Actor, type Ctx, inTx, type TxCtx } from '../../platform/context.ts';
import { emit } from '../../platform/events/emit.ts';
import { errors } from '../../platform/http/errors.ts';
import { newId } from '../../platform/ids.ts';
import type { Providers } from '../../platform/providers.ts';
import { hashPassword } from '../auth/password.ts';
import { findLiveUserByEmail } from '../auth/queries.ts';
import { createUser, type PublicUser } from '../auth/service.ts';
import { providerFor, queueMessage } from '../messaging/queue.ts';
import * as q from './invite-queries.ts';
import { assertCanAssign } from './roles-service.ts';

/** How long an invite link works. */
export const INVITE_TTL_MS = 7 * 24 * 3600_000;

export interface InviteDeps {
  providers: Providers;
  encryptionKey: string;
  publicUrl: string;
}

export interface InviteView {
  id: string;
  email: string;
  role: string;
  accepted: boolean;
  /** The token itself, only in the answer that made it and only when no email provider will mail it. */
  token: string | null;
  expires_at: Date;
  metadata: Record<string, unknown> | null;
  created_at: Date;
  updated_at: Date;
}

const eventOf = (row: q.InviteRow, userId?: string) => ({
  id: row.id,
  email: row.email,
  role: row.role,
  expires_at: row.expires_at.toISOString(),
  ...(userId ? { user_id: userId } : {}),
});

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');
const notFound = (id: string) => errors.notFound('invite_not_found', { id });
export const invalidInvite = () => errors.unauthorized('invite_invalid');

function view(row: q.InviteRow, token: string | null = null): InviteView {
  const { id, email, role, expires_at, metadata, created_at, updated_at } = row;
  return { id, email, role, accepted: row.accepted_by !== null, token, expires_at, metadata, created_at, updated_at };
}

/** A fresh token and the mail that carries its link, in the caller's transaction. */
async function issueToken(
  tctx: TxCtx,
  deps: InviteDeps,
  row: q.InviteRow,
): Promise<{ row: q.InviteRow; token: string }> {
  const token = randomBytes(32).toString('base64url');
  const now = tctx.clock.now();
  const updated = await q.setInviteToken(tctx.tx, row.id, hashOf(token), new Date(now.getTime() + INVITE_TTL_MS), now);
  if (!updated) throw errors.notAllowed('invite_already_accepted', { id: row.id });
  await queueMessage(tctx, deps, {
    to: row.email,
    template: 'team.invite',
    data: { email: row.email, role: row.role },
    secretData: { invite_url: `${deps.publicUrl}/app/invite?token=${token}` },
    resource: { type: 'invite', id: row.id },
  });
  return { row: updated, token };
}

/** Shown to the inviting admin only when nothing will mail it. */
const shown = (deps: InviteDeps, token: string) => (providerFor(deps.providers, 'email') ? null : token);

export async function createInvite(
  ctx: Ctx,
  deps: InviteDeps,
  actor: Actor,
  input: { email: string; role?: string; metadata?: Record<string, unknown> | null },
): Promise<InviteView> {
  const role = input.role ?? 'viewer';
  await assertCanAssign(ctx, actor, role);
  if (await findLiveUserByEmail(ctx.db, input.email)) throw errors.invalid('user_email_taken', { email: input.email });
  if (await q.findOpenInviteByEmail(ctx.db, input.email))
    throw errors.duplicate('invalid_request_error', {
      detail: `Invite with email ${input.email} already exists; resend it instead`,
    });
  const now = ctx.clock.now();
  const { row, token } = await inTx(ctx, async (tctx) => {
    const created = await q.insertInvite(tctx.tx, {
      id: newId('invite'),
      email: input.email.toLowerCase(),
      role,
      token_hash: '',
      accepted_by: null,
      expires_at: now,
      invited_by: actor.id,
      metadata: input.metadata ?? null,
      created_at: now,
      updated_at: now,
    });
    const issued = await issueToken(tctx, deps, created);
    await emit(tctx, 'invite.created', eventOf(issued.row));
    return issued;
  });
  return view(row, shown(deps, token));
}

export async function resendInvite(ctx: Ctx, deps: InviteDeps, id: string): Promise<InviteView> {
  const { row, token } = await inTx(ctx, async (tctx) => {
    const found = await q.findInvite(tctx.tx, id);
    if (!found) throw notFound(id);
    const issued = await issueToken(tctx, deps, found);
    await emit(tctx, 'invite.resent', eventOf(issued.row));
    return issued;
  });
  return view(row, shown(deps, token));
}

export async function getInvite(ctx: Ctx, id: string): Promise<InviteView> {
  const row = await q.findInvite(ctx.db, id);
  if (!row) throw notFound(id);
  return view(row);
}

export async function listInvites(
  ctx: Ctx,
  filter: { email?: string },
  page: { limit: number; offset: number },
): Promise<{ invites: InviteView[]; count: number }> {
  const [rows, count] = await q.listInviteRows(ctx.db, filter, page);
  return { invites: rows.map((r) => view(r)), count };
}

export async function deleteInvite(ctx: Ctx, id: string): Promise<void> {
  if (!(await q.deleteInviteRow(ctx.db, id))) throw notFound(id);
}

/**
 * `POST /admin/invites/accept?token=…`: the token (once, unexpired) creates the user with the
 * invite's email and role, and marks the invite accepted, in one transaction.
 */
export async function acceptInvite(
  ctx: Ctx,
  token: string,
  input: { password: string; first_name?: string | null; last_name?: string | null },
): Promise<PublicUser> {
  const passwordHash = await hashPassword(input.password);
  return inTx(ctx, async (tctx) => {
    const now = tctx.clock.now();
    const invite = await q.lockOpenInviteByToken(tctx.tx, hashOf(token), now);
    if (!invite) throw invalidInvite();
    const user = await createUser(tctx, {
      email: invite.email,
      password: '',
      passwordHash,
      role: invite.role,
      first_name: input.first_name,
      last_name: input.last_name,
    });
    await q.markInviteAccepted(tctx.tx, invite.id, user.id, now);
    await emit(tctx, 'invite.accepted', eventOf(invite, user.id));
    return user;
  });
}
