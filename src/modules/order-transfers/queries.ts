import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.ts';
import { customers } from '../customers/tables.ts';
import type { OrderRow } from '../orders/queries.ts';
import { orders } from '../orders/tables.ts';

export async function hasAccount(db: Executor, customerId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: customers.id })
    .from(customers)
    .where(and(eq(customers.id, customerId), eq(customers.has_account, true)));
  return !!row;
}

export async function setCustomer(db: Executor, orderId: string, customerId: string, now: Date): Promise<void> {
  await db.update(orders).set({ customer_id: customerId, updated_at: now }).where(eq(orders.id, orderId));
}

/** A transfer to a guest: the order moves to the guest and its email becomes theirs. */
export async function setGuest(
  db: Executor,
  orderId: string,
  customerId: string,
  email: string,
  now: Date,
): Promise<void> {
  await db.update(orders).set({ customer_id: customerId, email, updated_at: now }).where(eq(orders.id, orderId));
}

export async function findOrder(db: Executor, id: string): Promise<OrderRow | undefined> {
  const [row] = await db.select().from(orders).where(eq(orders.id, id));
  return row;
}
