import { and, asc, eq, ilike, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.ts';
import { containsPattern } from '../../platform/db/like-pattern.ts';
import { countRows, findLiveRow, isLiveValueTaken, rowsPage, liveIdsAmong } from '../../platform/db/live-rows.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { customers } from '../customers/tables.ts';
import { customerGroupCustomers, customerGroups } from './tables.ts';

export type GroupRow = typeof customerGroups.$inferSelect;

export interface GroupFilters {
  q?: string;
  id?: string[];
  name?: string[];
  /** Groups that hold any of these customers. */
  customer_id?: string[];
}

function liveMatching(f: GroupFilters): SQL | undefined {
  return and(
    isNull(customerGroups.deleted_at),
    f.q ? ilike(customerGroups.name, containsPattern(f.q)) : undefined,
    f.id ? inArray(customerGroups.id, f.id) : undefined,
    f.name ? inArray(customerGroups.name, f.name) : undefined,
    f.customer_id
      ? inArray(
          customerGroups.id,
          sql`(select customer_group_id from customer_group_customers where customer_id = any(${sql.param(f.customer_id)}::text[]))`,
        )
      : undefined,
  );
}

export function listGroupRows(db: Executor, f: GroupFilters, page: Page): Promise<GroupRow[]> {
  return rowsPage(db, customerGroups, liveMatching(f), page);
}

export function countGroups(db: Executor, f: GroupFilters): Promise<number> {
  return countRows(db, customerGroups, liveMatching(f));
}

export function findLiveGroup(db: Executor, id: string, lock = false): Promise<GroupRow | undefined> {
  return findLiveRow(db, customerGroups, id, lock ? 'update' : undefined);
}

export function isGroupNameTaken(db: Executor, name: string, exceptId?: string): Promise<boolean> {
  return isLiveValueTaken(db, customerGroups, customerGroups.name, name, exceptId);
}

export async function insertGroup(db: Executor, row: GroupRow): Promise<void> {
  await db.insert(customerGroups).values(row);
}

export async function updateGroupRow(db: Executor, id: string, patch: Partial<GroupRow>): Promise<GroupRow> {
  const [row] = await db.update(customerGroups).set(patch).where(eq(customerGroups.id, id)).returning();
  return row;
}

/** Soft-deletes the group and lets its members go, in the caller's transaction. */
export async function softDeleteGroup(db: Executor, id: string, now: Date): Promise<void> {
  await db.update(customerGroups).set({ deleted_at: now, updated_at: now }).where(eq(customerGroups.id, id));
  await db.delete(customerGroupCustomers).where(eq(customerGroupCustomers.customer_group_id, id));
}

/** The ids among `ids` that name live groups. */
export async function liveGroupIds(db: Executor, ids: string[]): Promise<Set<string>> {
  return new Set(await liveIdsAmong(db, customerGroups, ids));
}

/** The ids among `ids` that name live customers (customers module's table, read only). */
export async function liveCustomerIds(db: Executor, ids: string[]): Promise<Set<string>> {
  return new Set(await liveIdsAmong(db, customers, ids));
}

export interface Membership {
  customer_group_id: string;
  customer_id: string;
}

/** Adds memberships; one already there is left as it is. */
export async function addMemberships(db: Executor, rows: Membership[], now: Date, actor: string | null) {
  if (!rows.length) return;
  await db
    .insert(customerGroupCustomers)
    .values(rows.map((r) => ({ ...r, created_by: actor, created_at: now })))
    .onConflictDoNothing();
}

export async function removeMemberships(db: Executor, rows: Membership[]): Promise<void> {
  if (!rows.length) return;
  await db.execute(sql`delete from customer_group_customers m
    using unnest(${sql.param(rows.map((r) => r.customer_group_id))}::text[], ${sql.param(rows.map((r) => r.customer_id))}::text[]) as x(g, c)
    where m.customer_group_id = x.g and m.customer_id = x.c`);
}

/** The live groups of each of `customerIds`, oldest group first: one query for a page of customers. */
export async function groupsOfCustomers(db: Executor, customerIds: string[]): Promise<Map<string, GroupRow[]>> {
  const out = new Map<string, GroupRow[]>();
  if (!customerIds.length) return out;
  const found = await db
    .select({ customer_id: customerGroupCustomers.customer_id, group: customerGroups })
    .from(customerGroupCustomers)
    .innerJoin(customerGroups, eq(customerGroups.id, customerGroupCustomers.customer_group_id))
    .where(and(inArray(customerGroupCustomers.customer_id, customerIds), isNull(customerGroups.deleted_at)))
    .orderBy(asc(customerGroups.id));
  for (const r of found) out.set(r.customer_id, [...(out.get(r.customer_id) ?? []), r.group]);
  return out;
}

/** A customer's group ids, sorted: the store's pricing context (an index-only read). */
export async function groupIdsOf(db: Executor, customerId: string): Promise<string[]> {
  const found = await db
    .select({ id: customerGroupCustomers.customer_group_id })
    .from(customerGroupCustomers)
    .where(eq(customerGroupCustomers.customer_id, customerId))
    .orderBy(asc(customerGroupCustomers.customer_group_id));
  return found.map((r) => r.id);
}
