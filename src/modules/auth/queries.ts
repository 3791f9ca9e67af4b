import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.ts';
import { users } from './tables.ts';

export type UserRow = typeof users.$inferSelect;

export async function findLiveUserByEmail(db: Executor, email: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(sql`lower(${users.email}) = ${email.toLowerCase()}`, isNull(users.deleted_at)))
    .limit(1);
  return row;
}

export async function findLiveUserById(db: Executor, id: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(and(eq(users.id, id), isNull(users.deleted_at))).limit(1);
  return row;
}

export async function findUserRole(db: Executor, id: string): Promise<UserRow['role'] | undefined> {
  const [row] = await db
    .select({ role: users.role })
    .from(users)
    .where(and(eq(users.id, id), isNull(users.deleted_at)))
    .limit(1);
  return row?.role;
}

export async function insertUser(db: Executor, row: typeof users.$inferInsert): Promise<UserRow> {
  const [created] = await db.insert(users).values(row).returning();
  return created;
}

export async function countUsers(db: Executor): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(users).where(isNull(users.deleted_at));
  return row.n;
}
