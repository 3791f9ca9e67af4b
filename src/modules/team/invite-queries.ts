import { and, count, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.ts';
import { insertRow } from '../../platform/db/insert-row.ts';
import { invites } from './tables.ts';

export type InviteRow = typeof invites.$inferSelect;

export function insertInvite(db: Executor, row: InviteRow): Promise<InviteRow> {
  return insertRow(db, invites, row);
}

export async function findInvite(db: Executor, id: string): Promise<InviteRow | undefined> {
  const [row] = await db.select().from(invites).where(eq(invites.id, id)).limit(1);
  return row;
}

/** An open invite for this email (not yet accepted), newest first. */
export async function findOpenInviteByEmail(db: Executor, email: string): Promise<InviteRow | undefined> {
  const [row] = await db
    .select()
    .from(invites)
    .where(and(sql`lower(${invites.email}) = ${email.toLowerCase()}`, isNull(invites.accepted_by)))
    .orderBy(desc(invites.created_at))
    .limit(1);
  return row;
}

export async function listInviteRows(
  db: Executor,
  filter: { email?: string },
  page: { limit: number; offset: number },
): Promise<[InviteRow[], number]> {
  const where = filter.email ? sql`lower(${invites.email}) = ${filter.email.toLowerCase()}` : undefined;
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(invites)
      .where(where)
      .orderBy(desc(invites.created_at), desc(invites.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(invites).where(where),
  ]);
  return [rows, Number(total.n)];
}

export async function setInviteToken(
  db: Executor,
  id: string,
  tokenHash: string,
  expiresAt: Date,
  now: Date,
): Promise<InviteRow | undefined> {
  const [row] = await db
    .update(invites)
    .set({ token_hash: tokenHash, expires_at: expiresAt, updated_at: now })
    .where(and(eq(invites.id, id), isNull(invites.accepted_by)))
    .returning();
  return row;
}

/** The open, unexpired invite a token names, locked until the accepting transaction ends. */
export async function lockOpenInviteByToken(
  db: Executor,
  tokenHash: string,
  now: Date,
): Promise<InviteRow | undefined> {
  const [row] = await db
    .select()
    .from(invites)
    .where(and(eq(invites.token_hash, tokenHash), isNull(invites.accepted_by), gt(invites.expires_at, now)))
    .limit(1)
    .for('update');
  return row;
}

export async function markInviteAccepted(db: Executor, id: string, userId: string, now: Date): Promise<void> {
  await db.update(invites).set({ accepted_by: userId, updated_at: now }).where(eq(invites.id, id));
}

export async function deleteInviteRow(db: Executor, id: string): Promise<boolean> {
  return (await db.delete(invites).where(eq(invites.id, id)).returning({ id: invites.id })).length > 0;
}
