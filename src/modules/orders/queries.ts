import { asc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../platform/db/database.ts';
import type { NamedPart } from '../../platform/db/one-statement.ts';
import { orderLineItems, orders, orderShippingMethods } from './tables.ts';

export type OrderRow = typeof orders.$inferSelect;
export type OrderLineRow = typeof orderLineItems.$inferSelect;
export type OrderShippingMethodRow = typeof orderShippingMethods.$inferSelect;

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
  return db
    .select()
    .from(orderShippingMethods)
    .where(eq(orderShippingMethods.order_id, orderId))
    .orderBy(asc(orderShippingMethods.id));
}

const LINE_COLUMNS = sql.raw(
  'id, order_id, variant_id, product_id, title, subtitle, thumbnail, product_title, product_handle, variant_title, variant_sku, ' +
    'unit_price, quantity, reserved_quantity, fulfilled_quantity, shipped_quantity, returned_quantity, pricing, metadata, created_at, updated_at',
);
const METHOD_COLUMNS = sql.raw('id, order_id, shipping_option_id, name, amount, data, pricing, created_at, updated_at');

/**
 * Checkout's writes of a new order: the order, its lines and its shipping methods, as named parts
 * of checkout's one statement (db/one-statement.ts). The part named `order` RETURNs the order's
 * `display_id`, drawn from its sequence, which that statement reads back by that name.
 */
export function orderWrites(
  o: Omit<OrderRow, 'display_id'>,
  lines: OrderLineRow[],
  methods: OrderShippingMethodRow[],
): NamedPart[] {
  const order = sql`insert into orders (id, status, payment_status, fulfillment_status, cart_id, customer_id, email, region_id, sales_channel_id,
      currency_code, shipping_address, billing_address, item_total, shipping_total, tax_total, discount_total, total, metadata,
      canceled_at, created_at, updated_at)
    values (${o.id}, ${o.status}, ${o.payment_status}, ${o.fulfillment_status}, ${o.cart_id}, ${o.customer_id}, ${o.email}, ${o.region_id},
      ${o.sales_channel_id}, ${o.currency_code}, ${json(o.shipping_address)}::jsonb, ${json(o.billing_address)}::jsonb, ${o.item_total},
      ${o.shipping_total}, ${o.tax_total}, ${o.discount_total}, ${o.total}, ${json(o.metadata)}::jsonb, null,
      ${o.created_at.toISOString()}::timestamptz, ${o.updated_at.toISOString()}::timestamptz)
    returning display_id`;
  const writes: NamedPart[] = [['order', order]];
  if (lines.length)
    writes.push([
      'order_line_items',
      sql`insert into order_line_items (${LINE_COLUMNS})
      select ${LINE_COLUMNS} from json_populate_recordset(null::order_line_items, ${JSON.stringify(lines)}::json)`,
    ]);
  if (methods.length)
    writes.push([
      'order_shipping_methods',
      sql`insert into order_shipping_methods (${METHOD_COLUMNS})
      select ${METHOD_COLUMNS} from json_populate_recordset(null::order_shipping_methods, ${JSON.stringify(methods)}::json)`,
    ]);
  return writes;
}

const json = (v: unknown) => (v == null ? null : JSON.stringify(v));
