import { and, count, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.ts';
import { insertRow } from '../../platform/db/insert-row.ts';
import { invites, roles } from './tables.ts';

export type RoleRow = typeof roles.$inferSelect;

export async function listCustomRoles(db: Executor): Promise<RoleRow[]> {
  return db.select().from(roles).orderBy(roles.name, roles.id);
}

export async function findRole(db: Executor, id: string): Promise<RoleRow | undefined> {
  const [row] = await db.select().from(roles).where(eq(roles.id, id)).limit(1);
  return row;
}

/** The role, locked until the transaction ends: its permissions are read, changed and written back. */
export async function lockRole(db: Executor, id: string): Promise<RoleRow | undefined> {
  const [row] = await db.select().from(roles).where(eq(roles.id, id)).limit(1).for('update');
  return row;
}

export async function findRoleByName(db: Executor, name: string): Promise<RoleRow | undefined> {
  const [row] = await db.select().from(roles).where(sql`lower(${roles.name}) = ${name.toLowerCase()}`).limit(1);
  return row;
}

export function insertRole(db: Executor, row: RoleRow): Promise<RoleRow> {
  return insertRow(db, roles, row);
}

export async function updateRoleRow(
  db: Executor,
  id: string,
  patch: Partial<Pick<RoleRow, 'name' | 'description' | 'permissions'>>,
  now: Date,
): Promise<RoleRow | undefined> {
  const [row] = await db
    .update(roles)
    .set({ ...patch, updated_at: now })
    .where(eq(roles.id, id))
    .returning();
  return row;
}

export async function deleteRoleRow(db: Executor, id: string): Promise<boolean> {
  return (await db.delete(roles).where(eq(roles.id, id)).returning({ id: roles.id })).length > 0;
}

/** Open invites that would grant a role (a role they name cannot be deleted). */
export async function countOpenInvitesWithRole(db: Executor, role: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(invites)
    .where(and(eq(invites.role, role), isNull(invites.accepted_by)));
  return Number(row.n);
}
