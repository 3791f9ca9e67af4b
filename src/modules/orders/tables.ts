import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgSequence,
  pgTable,
  serial,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { ChargePricingJson } from '../totals/shapes.ts';
import { idColumn, metadata, timestamps, ts } from '../../platform/db/columns.ts';
import { type AddressJson, lineSnapshotColumns, shippingMethodColumns } from '../carts/tables.ts';

/** Medusa v2's order status values, so its SDK and storefronts read them as they read Medusa's. */
export type OrderStatus = 'pending' | 'completed' | 'draft' | 'archived' | 'canceled' | 'requires_action';
export type OrderPaymentStatus =
  | 'not_paid'
  | 'awaiting'
  | 'authorized'
  | 'partially_authorized'
  | 'captured'
  | 'partially_captured'
  | 'partially_refunded'
  | 'refunded'
  | 'canceled'
  | 'requires_action';
export type OrderFulfillmentStatus =
  | 'not_fulfilled'
  | 'partially_fulfilled'
  | 'fulfilled'
  | 'partially_shipped'
  | 'shipped'
  | 'partially_delivered'
  | 'delivered'
  | 'canceled';

/** Draft orders count on their own (#1, #2, …); converted, a draft takes the next order number. */
export const draftOrderDisplayIds = pgSequence('draft_order_display_id_seq');

export const orders = pgTable(
  'orders',
  {
    id: idColumn(),
    display_id: serial('display_id').notNull(),
    status: text('status').$type<OrderStatus>().notNull(),
    payment_status: text('payment_status').$type<OrderPaymentStatus>().notNull(),
    fulfillment_status: text('fulfillment_status').$type<OrderFulfillmentStatus>().notNull(),
    /** Unique: whatever races, one cart yields at most one order. Null for an order made from a draft. */
    cart_id: text('cart_id'),
    /** A draft order (status `draft`) the operator builds; its display_id comes from draft_order_display_id_seq. */
    is_draft_order: boolean('is_draft_order').notNull().default(false),
    customer_id: text('customer_id'),
    /** The order's id in the system it was imported from (`POST /admin/orders/import`); unique, so an import sent again adds nothing twice. */
    external_id: text('external_id'),
    email: text('email').notNull(),
    region_id: text('region_id').notNull(),
    sales_channel_id: text('sales_channel_id'),
    currency_code: text('currency_code').notNull(),
    shipping_address: jsonb('shipping_address').$type<AddressJson | null>(),
    billing_address: jsonb('billing_address').$type<AddressJson | null>(),
    // Totals in minor units, fixed at checkout (no taxes or discounts yet: those stay 0).
    item_total: bigint('item_total', { mode: 'number' }).notNull(),
    shipping_total: bigint('shipping_total', { mode: 'number' }).notNull(),
    tax_total: bigint('tax_total', { mode: 'number' }).notNull().default(0),
    discount_total: bigint('discount_total', { mode: 'number' }).notNull().default(0),
    total: bigint('total', { mode: 'number' }).notNull(),
    ...metadata,
    canceled_at: ts('canceled_at'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('orders_cart_idx').on(t.cart_id),
    uniqueIndex('orders_display_id_idx').on(t.display_id).where(sql`not is_draft_order`),
    uniqueIndex('orders_draft_display_id_idx').on(t.display_id).where(sql`is_draft_order`),
    uniqueIndex('orders_external_id_idx').on(t.external_id).where(sql`external_id is not null`),
    index('orders_customer_idx').on(t.customer_id),
    index('orders_created_at_idx').on(t.created_at),
    // The order desk at a million orders (desk-queries.ts): `email` exact, and `q` as a part of
    // the email (trigrams) or the start of the id (a prefix on the lower-cased id).
    index('orders_lower_email_idx').on(sql`lower(${t.email})`),
    index('orders_email_trgm_idx').using('gin', sql`${t.email} gin_trgm_ops`).with({ gin_pending_list_limit: 128 }),
    index('orders_lower_id_prefix_idx').using('btree', sql`lower(${t.id}) text_pattern_ops`),
  ],
);

/** A copy of the cart line at checkout, plus the quantities the order desk moves. */
export const orderLineItems = pgTable(
  'order_line_items',
  {
    id: idColumn(),
    order_id: text('order_id').notNull(),
    /** Null on a custom line of a draft order (a title and a price, no variant). */
    variant_id: text('variant_id'),
    product_id: text('product_id'),
    ...lineSnapshotColumns,
    /** Units taken from the variant's stock at checkout (0 when it does not manage inventory): a cancel puts these back. */
    reserved_quantity: integer('reserved_quantity').notNull().default(0),
    fulfilled_quantity: integer('fulfilled_quantity').notNull().default(0),
    shipped_quantity: integer('shipped_quantity').notNull().default(0),
    returned_quantity: integer('returned_quantity').notNull().default(0),
    /** Tax lines, discounts and tax-inclusiveness as placed (null: an order placed before taxes existed). */
    pricing: jsonb('pricing').$type<ChargePricingJson | null>(),
    ...metadata,
    ...timestamps,
  },
  (t) => [index('order_line_items_order_idx').on(t.order_id)],
);

export const orderShippingMethods = pgTable(
  'order_shipping_methods',
  {
    id: idColumn(),
    order_id: text('order_id').notNull(),
    shipping_option_id: text('shipping_option_id'),
    ...shippingMethodColumns,
    pricing: jsonb('pricing').$type<ChargePricingJson | null>(),
    ...timestamps,
  },
  (t) => [index('order_shipping_methods_order_idx').on(t.order_id)],
);
