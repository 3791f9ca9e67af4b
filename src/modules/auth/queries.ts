import { and, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.ts';
import { insertRow } from '../../platform/db/insert-row.ts';
import { countRows, findLiveRow } from '../../platform/db/live-rows.ts';
import { passwordResetTokens, users } from './tables.ts';
import { roles } from '../team/tables.ts';

export type UserRow = typeof users.$inferSelect;

export async function findLiveUserByEmail(db: Executor, email: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(sql`lower(${users.email}) = ${email.toLowerCase()}`, isNull(users.deleted_at)))
    .limit(1);
  return row;
}

export function findLiveUserById(db: Executor, id: string): Promise<UserRow | undefined> {
  return findLiveRow(db, users, id);
}

/**
 * What the admin guard reads on every request: the live user's role, its custom permissions
 * (team's `roles`, null for a built-in role) and token version (one primary-key read).
 */
export async function findUserAccess(
  db: Executor,
  id: string,
): Promise<(Pick<UserRow, 'role' | 'token_version'> & { permissions: string[] | null }) | undefined> {
  const [row] = await db
    .select({ role: users.role, token_version: users.token_version, permissions: roles.permissions })
    .from(users)
    .leftJoin(roles, eq(roles.id, users.role))
    .where(and(eq(users.id, id), isNull(users.deleted_at)))
    .limit(1);
  return row;
}

export function insertUser(db: Executor, row: typeof users.$inferInsert): Promise<UserRow> {
  return insertRow(db, users, row);
}

/** Live users, oldest first (the admin panel's Users and roles). */
export async function listLiveUsers(db: Executor, page: { limit: number; offset: number }): Promise<UserRow[]> {
  return db
    .select()
    .from(users)
    .where(isNull(users.deleted_at))
    .orderBy(users.created_at, users.id)
    .limit(page.limit)
    .offset(page.offset);
}

export function countUsers(db: Executor): Promise<number> {
  return countRows(db, users, isNull(users.deleted_at));
}

/** A new password revokes the user's tokens: their version is now behind. */
export async function setUserPasswordHash(db: Executor, id: string, hash: string, now: Date): Promise<void> {
  await db
    .update(users)
    .set({ password_hash: hash, token_version: sql`${users.token_version} + 1`, updated_at: now })
    .where(eq(users.id, id));
}

export async function insertResetToken(db: Executor, row: typeof passwordResetTokens.$inferSelect): Promise<void> {
  await db.insert(passwordResetTokens).values(row);
}

/** Marks a live token (right actor, unused, unexpired) used; its identity, or undefined. */
export async function spendResetToken(
  db: Executor,
  actorType: 'user' | 'customer',
  tokenHash: string,
  now: Date,
): Promise<string | undefined> {
  const t = passwordResetTokens;
  const [used] = await db
    .update(t)
    .set({ used_at: now })
    .where(and(eq(t.token_hash, tokenHash), eq(t.actor_type, actorType), isNull(t.used_at), gt(t.expires_at, now)))
    .returning({ identity_id: t.identity_id });
  return used?.identity_id;
}

/** Every other open token of the identity is used up with the one that was used. */
export async function spendResetTokensOf(
  db: Executor,
  actorType: 'user' | 'customer',
  identityId: string,
  now: Date,
): Promise<void> {
  const t = passwordResetTokens;
  await db
    .update(t)
    .set({ used_at: now })
    .where(and(eq(t.identity_id, identityId), eq(t.actor_type, actorType), isNull(t.used_at)));
}

/** The live owners, locked: the last-owner rule counts them inside the transaction that would change one. */
export async function lockLiveOwnerIds(db: Executor): Promise<string[]> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, 'owner'), isNull(users.deleted_at)))
    .orderBy(users.id)
    .for('update');
  return rows.map((r) => r.id);
}

export async function updateUserRow(
  db: Executor,
  id: string,
  patch: Partial<Pick<UserRow, 'first_name' | 'last_name' | 'avatar_url' | 'metadata' | 'role'>>,
  now: Date,
): Promise<UserRow | undefined> {
  const [row] = await db
    .update(users)
    .set({ ...patch, updated_at: now })
    .where(and(eq(users.id, id), isNull(users.deleted_at)))
    .returning();
  return row;
}

/** Soft delete; the guard's read skips deleted users, so their tokens and sessions stop working at once. */
export async function softDeleteUser(db: Executor, id: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ deleted_at: now, updated_at: now })
    .where(and(eq(users.id, id), isNull(users.deleted_at)))
    .returning({ id: users.id });
  return rows.length > 0;
}

/** How many live users hold a role (a custom role in use cannot be deleted). */
export async function countUsersWithRole(db: Executor, role: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(users)
    .where(and(eq(users.role, role), isNull(users.deleted_at)));
  return Number(row.n);
}

/** Live users holding a role (optionally only some ids), oldest first: a role's members, paged. */
export async function listLiveUsersWithRole(
  db: Executor,
  role: string,
  page: { limit: number; offset: number },
  ids?: string[],
): Promise<{ rows: UserRow[]; count: number }> {
  const where = and(
    eq(users.role, role),
    isNull(users.deleted_at),
    ids ? inArray(users.id, ids.length ? ids : ['']) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db.select().from(users).where(where).orderBy(users.created_at, users.id).limit(page.limit).offset(page.offset),
    db.select({ n: sql<number>`count(*)::int` }).from(users).where(where),
  ]);
  return { rows, count: Number(total.n) };
}
