import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.ts';
import { orderChangeActions, orderChanges, orderSummaries, orderVersions } from '../orders/changes/tables.ts';
import type { OrderLineRow, OrderRow, OrderShippingMethodRow } from '../orders/queries.ts';
import { orderLineItems, orders, orderShippingMethods } from '../orders/tables.ts';
import type { ChargePricingJson } from '../totals/shapes.ts';

/** A draft order's row: its display id drawn from the drafts' own sequence. */
export async function insertDraft(db: Executor, row: Omit<OrderRow, 'display_id'>): Promise<OrderRow> {
  const [created] = await db
    .insert(orders)
    .values({ ...row, display_id: sql`nextval('draft_order_display_id_seq')` })
    .returning();
  return created;
}

export async function insertLines(db: Executor, rows: OrderLineRow[]): Promise<void> {
  if (rows.length) await db.insert(orderLineItems).values(rows);
}

export async function insertMethods(db: Executor, rows: OrderShippingMethodRow[]): Promise<void> {
  if (rows.length) await db.insert(orderShippingMethods).values(rows);
}

export async function deleteMethod(db: Executor, id: string): Promise<void> {
  await db.delete(orderShippingMethods).where(eq(orderShippingMethods.id, id));
}

type DraftPatch = Partial<
  Pick<
    OrderRow,
    | 'email'
    | 'customer_id'
    | 'sales_channel_id'
    | 'shipping_address'
    | 'billing_address'
    | 'metadata'
    | 'status'
    | 'is_draft_order'
    | 'updated_at'
  >
>;

export async function updateDraft(db: Executor, id: string, patch: DraftPatch): Promise<OrderRow> {
  const [row] = await db.update(orders).set(patch).where(eq(orders.id, id)).returning();
  return row;
}

/** The draft becomes an order: the next order number (the orders' serial), status pending. */
export async function placeDraft(db: Executor, id: string, now: Date): Promise<OrderRow> {
  const [row] = await db
    .update(orders)
    .set({
      display_id: sql`nextval(pg_get_serial_sequence('orders', 'display_id'))`,
      is_draft_order: false,
      status: 'pending',
      created_at: now,
      updated_at: now,
    })
    .where(eq(orders.id, id))
    .returning();
  return row;
}

/** Everything a draft is made of (it was never placed: no payments, fulfillments or returns). */
export async function deleteDraft(db: Executor, id: string): Promise<void> {
  await db.delete(orderChangeActions).where(eq(orderChangeActions.order_id, id));
  await db.delete(orderChanges).where(eq(orderChanges.order_id, id));
  await db.delete(orderVersions).where(eq(orderVersions.order_id, id));
  await db.delete(orderSummaries).where(eq(orderSummaries.order_id, id));
  await db.delete(orderLineItems).where(eq(orderLineItems.order_id, id));
  await db.delete(orderShippingMethods).where(eq(orderShippingMethods.order_id, id));
  await db.delete(orders).where(eq(orders.id, id));
}

/** A converted draft's money starts at conversion: what its edits made is its placed total. */
export async function restartSummary(db: Executor, id: string, total: number, now: Date): Promise<void> {
  await db
    .update(orderSummaries)
    .set({ original_order_total: total, updated_at: now })
    .where(eq(orderSummaries.order_id, id));
}

export async function setLinePricing(db: Executor, id: string, pricing: ChargePricingJson | null): Promise<void> {
  await db.update(orderLineItems).set({ pricing }).where(eq(orderLineItems.id, id));
}

export async function setMethodPricing(db: Executor, id: string, pricing: ChargePricingJson | null): Promise<void> {
  await db.update(orderShippingMethods).set({ pricing }).where(eq(orderShippingMethods.id, id));
}
