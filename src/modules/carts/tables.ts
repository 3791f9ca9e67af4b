import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { idColumn, metadata, timestamps, ts } from '../../platform/db/columns.ts';

/** A postal address as Medusa's storefront sends it; kept on the cart (and copied to the order) as JSON. */
export interface AddressJson {
  id: string;
  first_name: string | null;
  last_name: string | null;
  company: string | null;
  address_1: string | null;
  address_2: string | null;
  city: string | null;
  country_code: string | null;
  province: string | null;
  postal_code: string | null;
  phone: string | null;
  metadata: Record<string, unknown> | null;
}

/**
 * What a line shows and costs, copied from the variant when the line is made; an order line keeps
 * the cart line's copy, so both tables spell these columns from here.
 */
export const lineSnapshotColumns = {
  title: text('title').notNull(),
  subtitle: text('subtitle'),
  thumbnail: text('thumbnail'),
  product_title: text('product_title').notNull(),
  product_handle: text('product_handle'),
  variant_title: text('variant_title').notNull(),
  variant_sku: text('variant_sku'),
  unit_price: bigint('unit_price', { mode: 'number' }).notNull(),
  quantity: integer('quantity').notNull(),
};

/** A chosen shipping option as a cart and then its order keep it: its name and price at the time. */
export const shippingMethodColumns = {
  name: text('name').notNull(),
  amount: bigint('amount', { mode: 'number' }).notNull(),
  data: jsonb('data').$type<Record<string, unknown> | null>(),
};

export const carts = pgTable(
  'carts',
  {
    id: idColumn(),
    region_id: text('region_id').notNull(),
    sales_channel_id: text('sales_channel_id'),
    currency_code: text('currency_code').notNull(),
    email: text('email'),
    customer_id: text('customer_id'),
    shipping_address: jsonb('shipping_address').$type<AddressJson | null>(),
    billing_address: jsonb('billing_address').$type<AddressJson | null>(),
    /** The shopper's language (BCP 47, e.g. `fr-FR`), as Medusa's storefront sets it; kept, not yet used. */
    locale: text('locale'),
    ...metadata,
    completed_at: ts('completed_at'),
    abandoned_at: ts('abandoned_at'),
    /** Moved by every mutation; the abandonment job compares it with the clock. */
    last_activity_at: ts('last_activity_at').notNull(),
    order_id: text('order_id'),
    /** Asked with `POST /store/carts/{id}/taxes`: taxes apply even when the region's `automatic_taxes` is off. */
    tax_requested_at: ts('tax_requested_at'),
    ...timestamps,
  },
  (t) => [
    // Only open, not yet abandoned carts are ever scanned by the abandonment job.
    index('carts_idle_idx').on(t.last_activity_at).where(sql`completed_at is null and abandoned_at is null`),
    index('carts_customer_idx').on(t.customer_id),
  ],
);

/** Prices are copied from the variant when the line is added (integers in minor units). */
export const cartLineItems = pgTable(
  'cart_line_items',
  {
    id: idColumn(),
    cart_id: text('cart_id').notNull(),
    variant_id: text('variant_id').notNull(),
    product_id: text('product_id').notNull(),
    ...lineSnapshotColumns,
    ...metadata,
    ...timestamps,
  },
  (t) => [index('cart_line_items_cart_idx').on(t.cart_id)],
);

/** A cart has at most one shipping method: choosing another replaces it. */
export const cartShippingMethods = pgTable(
  'cart_shipping_methods',
  {
    id: idColumn(),
    cart_id: text('cart_id').notNull(),
    shipping_option_id: text('shipping_option_id').notNull(),
    ...shippingMethodColumns,
    ...timestamps,
  },
  (t) => [index('cart_shipping_methods_cart_idx').on(t.cart_id)],
);
