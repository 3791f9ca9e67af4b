import { asc, eq } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.ts';
import { orderLineItems, orders, orderShippingMethods } from './tables.ts';

export type OrderRow = typeof orders.$inferSelect;
export type OrderLineRow = typeof orderLineItems.$inferSelect;
export type OrderShippingMethodRow = typeof orderShippingMethods.$inferSelect;

export async function insertOrder(db: Executor, row: typeof orders.$inferInsert): Promise<OrderRow> {
  const [created] = await db.insert(orders).values(row).returning();
  return created;
}

export async function insertOrderLines(db: Executor, lines: (typeof orderLineItems.$inferInsert)[]): Promise<OrderLineRow[]> {
  return lines.length ? db.insert(orderLineItems).values(lines).returning() : [];
}

export async function insertOrderShippingMethods(
  db: Executor,
  methods: (typeof orderShippingMethods.$inferInsert)[],
): Promise<OrderShippingMethodRow[]> {
  return methods.length ? db.insert(orderShippingMethods).values(methods).returning() : [];
}

export async function findOrder(db: Executor, id: string): Promise<OrderRow | undefined> {
  const [row] = await db.select().from(orders).where(eq(orders.id, id));
  return row;
}

export async function findOrderIdByCart(db: Executor, cartId: string): Promise<string | undefined> {
  const [row] = await db.select({ id: orders.id }).from(orders).where(eq(orders.cart_id, cartId));
  return row?.id;
}

export async function listOrderLines(db: Executor, orderId: string): Promise<OrderLineRow[]> {
  return db.select().from(orderLineItems).where(eq(orderLineItems.order_id, orderId)).orderBy(asc(orderLineItems.id));
}

export async function listOrderShippingMethods(db: Executor, orderId: string): Promise<OrderShippingMethodRow[]> {
  return db.select().from(orderShippingMethods).where(eq(orderShippingMethods.order_id, orderId)).orderBy(asc(orderShippingMethods.id));
}
