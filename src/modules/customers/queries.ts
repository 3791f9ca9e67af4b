import { and, asc, type Column, eq, ilike, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.ts';
import { insertRow } from '../../platform/db/insert-row.ts';
import { textArray } from '../../platform/db/prepared.ts';
import { countRows, findLiveRow, liveIdsAmong, rowsPage } from '../../platform/db/live-rows.ts';
import { containsPattern } from '../../platform/db/like-pattern.ts';
import { searchBreadth } from '../../platform/db/search-breadth.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { customerAuthIdentities, customers } from './tables.ts';
import { customerGroupCustomers as members } from '../customer-groups/tables.ts';

export type CustomerRow = typeof customers.$inferSelect;
export type IdentityRow = typeof customerAuthIdentities.$inferSelect;
type CustomerPatch = Partial<Omit<typeof customers.$inferInsert, 'id' | 'created_at'>>;

export interface CustomerFilters {
  q?: string;
  /** Lower-cased. */
  email?: string[];
  has_account?: boolean;
  /** Members of any of these customer groups (customer-groups' membership table, read only). */
  groups?: string[];
}

/**
 * `walk`: the search written so that no trigram index serves it (`|| ''`), for a `q` many
 * customers match (search-breadth.ts): walking the id order then meets a page of matches at once.
 */
function liveMatching(f: CustomerFilters, walk = false): SQL | undefined {
  const like = f.q ? containsPattern(f.q) : undefined;
  const text = (c: Column) => (walk ? sql`(${c} || '')` : c);
  return and(
    isNull(customers.deleted_at),
    like
      ? or(
          ilike(text(customers.email), like),
          ilike(text(customers.first_name), like),
          ilike(text(customers.last_name), like),
        )
      : undefined,
    f.email ? inArray(sql`lower(${customers.email})`, f.email) : undefined,
    f.has_account === undefined ? undefined : eq(customers.has_account, f.has_account),
    f.groups
      ? sql`${customers.id} in (select ${members.customer_id} from ${members} where ${members.customer_group_id} = any(${sql.param(f.groups)}::text[]))`
      : undefined,
  );
}

/** How common `filters`' matches are among the customers (search-breadth.ts): asked for a `q`. */
export function customerSearchBreadth(db: Executor, filters: CustomerFilters) {
  return searchBreadth(db, 'customers', liveMatching(filters));
}

/**
 * A page of customers in id order. `walk`: a `q` many customers match (`customerSearchBreadth`,
 * `walkLength`): the page is looked for among that many first customers by id, and when they
 * hold too few matches (fewer than the sample promised), by walking the whole id order.
 */
export async function listCustomerRows(
  db: Executor,
  filters: CustomerFilters,
  page: Page,
  walk?: number,
): Promise<CustomerRow[]> {
  if (walk === undefined) return rowsPage(db, customers, liveMatching(filters), page);
  // Named as the table, so the filters' qualified columns read the prefix.
  const prefix = db.select().from(customers).orderBy(asc(customers.id)).limit(walk).as('customers');
  const found = await db
    .select()
    .from(prefix)
    .where(liveMatching(filters))
    .orderBy(asc(prefix.id))
    .limit(page.limit)
    .offset(page.offset);
  if (found.length === page.limit) return found;
  return rowsPage(db, customers, liveMatching(filters, true), page);
}

export function countCustomers(db: Executor, filters: CustomerFilters): Promise<number> {
  return countRows(db, customers, liveMatching(filters));
}

export function findLiveCustomer(db: Executor, id: string): Promise<CustomerRow | undefined> {
  return findLiveRow(db, customers, id);
}

/** Which of `ids` are live customers. */
export async function liveCustomerIds(db: Executor, ids: string[]): Promise<Set<string>> {
  return new Set(await liveIdsAmong(db, customers, ids));
}

/**
 * The live customer of each of `emails` (lower-cased), where there is one: one with an account
 * first, then the oldest, as an order with that email would be theirs.
 */
export async function customerIdsByEmail(db: Executor, emails: string[]): Promise<Map<string, string>> {
  if (!emails.length) return new Map();
  const rows = await db
    .select({ id: customers.id, email: sql<string>`lower(${customers.email})` })
    .from(customers)
    .where(and(sql`lower(${customers.email}) = any(${textArray(emails)})`, isNull(customers.deleted_at)))
    .orderBy(sql`${customers.has_account} desc`, asc(customers.created_at), asc(customers.id));
  const found = new Map<string, string>();
  for (const r of rows) if (!found.has(r.email)) found.set(r.email, r.id);
  return found;
}

/**
 * A live guest (no account) with this email, the `prefer`red one first when it is among them, then
 * the oldest: guests may share an email, and an order's own guest is the one it already belongs to.
 */
export async function findGuestByEmail(
  db: Executor,
  email: string,
  prefer: string | null,
): Promise<CustomerRow | undefined> {
  const [row] = await db
    .select()
    .from(customers)
    .where(
      and(
        sql`lower(${customers.email}) = ${email.toLowerCase()}`,
        eq(customers.has_account, false),
        isNull(customers.deleted_at),
      ),
    )
    .orderBy(sql`${customers.id} = ${prefer ?? ''} desc`, asc(customers.created_at), asc(customers.id))
    .limit(1);
  return row;
}

/** Locks the live customer row, so concurrent updates and a delete run one after the other. */
export function lockLiveCustomer(db: Executor, id: string): Promise<CustomerRow | undefined> {
  return findLiveRow(db, customers, id, 'update');
}

/**
 * The live account holder with this id, signed in through this login (what a customer token or
 * session may act as), with the login's token version: one read by two primary keys.
 */
export async function findAccountHolder(
  db: Executor,
  id: string,
  authIdentityId: string,
): Promise<{ id: string; email: string | null; token_version: number } | undefined> {
  const i = customerAuthIdentities;
  const [row] = await db
    .select({ id: customers.id, email: customers.email, token_version: i.token_version })
    .from(customers)
    .innerJoin(i, and(eq(i.id, authIdentityId), eq(i.customer_id, customers.id)))
    .where(and(eq(customers.id, id), eq(customers.has_account, true), isNull(customers.deleted_at)))
    .limit(1);
  return row;
}

export function insertCustomer(db: Executor, row: typeof customers.$inferInsert): Promise<CustomerRow> {
  return insertRow(db, customers, row);
}

export async function updateCustomerRow(db: Executor, id: string, patch: CustomerPatch): Promise<CustomerRow> {
  const [updated] = await db.update(customers).set(patch).where(eq(customers.id, id)).returning();
  return updated;
}

export async function softDeleteCustomerRow(db: Executor, id: string, now: Date): Promise<void> {
  await db.update(customers).set({ deleted_at: now, updated_at: now }).where(eq(customers.id, id));
}

export async function findIdentityByEmail(db: Executor, email: string): Promise<IdentityRow | undefined> {
  const [row] = await db
    .select()
    .from(customerAuthIdentities)
    .where(sql`lower(${customerAuthIdentities.email}) = ${email.toLowerCase()}`)
    .limit(1);
  return row;
}

/** Locks the identity, so two `POST /store/customers` with one register token make one customer. */
export async function lockIdentity(db: Executor, id: string): Promise<IdentityRow | undefined> {
  const [row] = await db.select().from(customerAuthIdentities).where(eq(customerAuthIdentities.id, id)).for('update');
  return row;
}

export function insertIdentity(db: Executor, row: typeof customerAuthIdentities.$inferInsert): Promise<IdentityRow> {
  return insertRow(db, customerAuthIdentities, row);
}

export async function setIdentityCustomer(
  db: Executor,
  identityId: string,
  customerId: string | null,
  now: Date,
): Promise<void> {
  await db
    .update(customerAuthIdentities)
    .set({ customer_id: customerId, updated_at: now })
    .where(eq(customerAuthIdentities.id, identityId));
}

/** Detaches the logins of a deleted customer: they keep working and may create a new account. */
export async function unlinkIdentitiesOf(db: Executor, customerId: string, now: Date): Promise<void> {
  await db
    .update(customerAuthIdentities)
    .set({ customer_id: null, updated_at: now })
    .where(eq(customerAuthIdentities.customer_id, customerId));
}

/** A new password revokes the login's tokens: their version is now behind. */
export async function setIdentityPasswordHash(db: Executor, id: string, hash: string, now: Date): Promise<void> {
  const i = customerAuthIdentities;
  await db
    .update(i)
    .set({ password_hash: hash, token_version: sql`${i.token_version} + 1`, updated_at: now })
    .where(eq(i.id, id));
}

export async function findIdentityById(db: Executor, id: string): Promise<IdentityRow | undefined> {
  const [row] = await db.select().from(customerAuthIdentities).where(eq(customerAuthIdentities.id, id)).limit(1);
  return row;
}

/** The current token version of a login, or undefined when there is no such login. */
export async function findIdentityTokenVersion(db: Executor, id: string): Promise<number | undefined> {
  const i = customerAuthIdentities;
  const [row] = await db.select({ token_version: i.token_version }).from(i).where(eq(i.id, id)).limit(1);
  return row?.token_version;
}
