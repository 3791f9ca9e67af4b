import { and, eq, gt, inArray, lte, sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.ts';
import { sessions } from './tables.ts';

export type SessionRow = typeof sessions.$inferSelect;

export async function insertSession(db: Executor, row: typeof sessions.$inferInsert): Promise<void> {
  await db.insert(sessions).values(row);
}

export async function findLiveSession(db: Executor, id: string, now: Date): Promise<SessionRow | undefined> {
  const [row] = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.id, id), gt(sessions.expires_at, now)))
    .limit(1);
  return row;
}

/** Deletes the session if it is still live; true when one was deleted. */
export async function deleteLiveSession(db: Executor, id: string, now: Date): Promise<boolean> {
  const deleted = await db
    .delete(sessions)
    .where(and(eq(sessions.id, id), gt(sessions.expires_at, now)))
    .returning({ id: sessions.id });
  return deleted.length > 0;
}

/** Removes up to `max` expired sessions (bounded, so a backlog never makes one request slow). */
export async function deleteExpiredSessions(db: Executor, now: Date, max: number): Promise<void> {
  const expired = db.select({ id: sessions.id }).from(sessions).where(lte(sessions.expires_at, now)).limit(max);
  await db.delete(sessions).where(inArray(sessions.id, expired));
}

/** Deletes every session made from a token of this login, by its claims (index `sessions_identity_idx`). */
export async function deleteSessionsOfIdentity(
  db: Executor,
  actorType: 'user' | 'customer',
  authIdentityId: string,
): Promise<void> {
  await db
    .delete(sessions)
    .where(
      and(
        sql`(${sessions.claims}->>'auth_identity_id') = ${authIdentityId}`,
        sql`${sessions.claims}->>'actor_type' = ${actorType}`,
      ),
    );
}
