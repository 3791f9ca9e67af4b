import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { customerAddresses } from './tables.ts';

export type AddressRow = typeof customerAddresses.$inferSelect;
export type AddressPatch = Partial<Omit<typeof customerAddresses.$inferInsert, 'id' | 'customer_id' | 'created_at'>>;

const own = (customerId: string, id: string) =>
  and(eq(customerAddresses.id, id), eq(customerAddresses.customer_id, customerId));

/** The address books of these customers, oldest address first (one query for a whole page of customers). */
export function listAddressesOf(db: Executor, customerIds: string[]): Promise<AddressRow[]> {
  if (!customerIds.length) return Promise.resolve([]);
  return db
    .select()
    .from(customerAddresses)
    .where(inArray(customerAddresses.customer_id, customerIds))
    .orderBy(asc(customerAddresses.id));
}

export function listAddressPage(db: Executor, customerId: string, page: Page): Promise<AddressRow[]> {
  return db
    .select()
    .from(customerAddresses)
    .where(eq(customerAddresses.customer_id, customerId))
    .orderBy(asc(customerAddresses.id))
    .limit(page.limit)
    .offset(page.offset);
}

export async function countAddresses(db: Executor, customerId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(customerAddresses)
    .where(eq(customerAddresses.customer_id, customerId));
  return row.n;
}

export async function findAddress(db: Executor, customerId: string, id: string): Promise<AddressRow | undefined> {
  const [row] = await db.select().from(customerAddresses).where(own(customerId, id));
  return row;
}

export async function insertAddress(db: Executor, row: typeof customerAddresses.$inferInsert): Promise<void> {
  await db.insert(customerAddresses).values(row);
}

export async function updateAddress(
  db: Executor,
  customerId: string,
  id: string,
  patch: AddressPatch,
): Promise<boolean> {
  const done = await db
    .update(customerAddresses)
    .set(patch)
    .where(own(customerId, id))
    .returning({ id: customerAddresses.id });
  return done.length > 0;
}

export async function deleteAddress(db: Executor, customerId: string, id: string): Promise<boolean> {
  const done = await db.delete(customerAddresses).where(own(customerId, id)).returning({ id: customerAddresses.id });
  return done.length > 0;
}

/** Clears the customer's other default of this kind, so the partial unique index holds. */
export async function clearDefault(
  db: Executor,
  customerId: string,
  kind: 'is_default_shipping' | 'is_default_billing',
  keepId: string,
  at: Date,
): Promise<void> {
  await db
    .update(customerAddresses)
    .set({ [kind]: false, updated_at: at })
    .where(
      and(
        eq(customerAddresses.customer_id, customerId),
        ne(customerAddresses.id, keepId),
        eq(customerAddresses[kind], true),
      ),
    );
}
