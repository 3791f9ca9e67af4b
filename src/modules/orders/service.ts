import type { NamedPart } from '../../platform/db/one-statement.ts';
import { newId } from '../../platform/ids.ts';
import { executor, type Ctx } from '../../platform/context.ts';
import type { CartRow, LineRow, ShippingMethodRow } from '../carts/queries.ts';
import { orderPaymentCollections } from '../payments/ledger.ts';
import type { OrderPaymentCollectionView } from '../payments/schema.ts';
import * as q from './queries.ts';
import type { OrderLineItemView, OrderShippingMethodView, OrderView } from './schema.ts';

const plainTotals = (amount: number) => ({
  subtotal: amount,
  total: amount,
  original_total: amount,
  discount_total: 0,
  tax_total: 0,
});

export function orderLineView(l: q.OrderLineRow): OrderLineItemView {
  const { reserved_quantity: _r, fulfilled_quantity, shipped_quantity, returned_quantity, ...rest } = l;
  return {
    ...rest,
    metadata: l.metadata ?? null,
    requires_shipping: true,
    is_discountable: true,
    is_tax_inclusive: false,
    detail: { quantity: l.quantity, fulfilled_quantity, shipped_quantity, returned_quantity },
    product: { id: l.product_id, title: l.product_title, handle: l.product_handle, thumbnail: l.thumbnail },
    variant: { id: l.variant_id, title: l.variant_title, sku: l.variant_sku, product_id: l.product_id },
    tax_lines: [],
    adjustments: [],
    ...plainTotals(l.unit_price * l.quantity),
  };
}

export function orderShippingMethodView(m: q.OrderShippingMethodRow): OrderShippingMethodView {
  return {
    ...m,
    data: m.data ?? null,
    is_tax_inclusive: false,
    tax_lines: [],
    adjustments: [],
    ...plainTotals(m.amount),
  };
}

/** The order as the API shows it (Medusa's default fields): totals are those fixed at checkout. */
export function orderView(
  o: q.OrderRow,
  lines: q.OrderLineRow[],
  methods: q.OrderShippingMethodRow[],
  paymentCollections: OrderPaymentCollectionView[],
): OrderView {
  return {
    ...o,
    metadata: o.metadata ?? null,
    shipping_address: o.shipping_address ?? null,
    billing_address: o.billing_address ?? null,
    items: lines.map(orderLineView),
    shipping_methods: methods.map(orderShippingMethodView),
    payment_collections: paymentCollections,
    item_subtotal: o.item_total,
    item_tax_total: 0,
    shipping_subtotal: o.shipping_total,
    shipping_tax_total: 0,
    subtotal: o.item_total + o.shipping_total,
    discount_tax_total: 0,
    original_total: o.item_total + o.shipping_total,
  };
}

/** The whole order, or null; served from the caller's transaction when there is one. */
export async function loadOrderView(ctx: Ctx, id: string): Promise<OrderView | null> {
  const db = executor(ctx);
  const order = await q.findOrder(db, id);
  if (!order) return null;
  const lines = await q.listOrderLines(db, id);
  const methods = await q.listOrderShippingMethods(db, id);
  return orderView(order, lines, methods, await orderPaymentCollections(db, id));
}

export async function findOrderIdByCart(ctx: Ctx, cartId: string): Promise<string | undefined> {
  return q.findOrderIdByCart(executor(ctx), cartId);
}

export interface PlacedOrder {
  /** `display_id` is 0 until the statement that runs `writes` answers it (their part named `order` returns it). */
  order: q.OrderRow;
  lines: q.OrderLineRow[];
  methods: q.OrderShippingMethodRow[];
  writes: NamedPart[];
}

/**
 * The order, its lines and shipping methods made from a cart, and their writes, which checkout
 * runs inside its transaction. `managed` names the variants whose stock checkout takes: their
 * lines record it as `reserved_quantity` (what a cancel gives back).
 */
export function placeOrder(
  ctx: Ctx,
  cart: CartRow & { email: string },
  lines: LineRow[],
  methods: ShippingMethodRow[],
  managed: Set<string>,
): PlacedOrder {
  const now = ctx.clock.now();
  const itemTotal = lines.reduce((s, l) => s + l.unit_price * l.quantity, 0);
  const shippingTotal = methods.reduce((s, m) => s + m.amount, 0);
  const id = newId('order');
  const stamps = { created_at: now, updated_at: now };
  const order = {
    id,
    status: 'pending' as const,
    payment_status: 'authorized' as const,
    fulfillment_status: 'not_fulfilled' as const,
    cart_id: cart.id,
    customer_id: cart.customer_id,
    email: cart.email,
    region_id: cart.region_id,
    sales_channel_id: cart.sales_channel_id,
    currency_code: cart.currency_code,
    shipping_address: cart.shipping_address,
    billing_address: cart.billing_address,
    item_total: itemTotal,
    shipping_total: shippingTotal,
    tax_total: 0,
    discount_total: 0,
    total: itemTotal + shippingTotal,
    metadata: cart.metadata,
    canceled_at: null,
    ...stamps,
  };
  const orderLines: q.OrderLineRow[] = lines.map((l) => ({
    id: newId('ordli'),
    order_id: id,
    variant_id: l.variant_id,
    product_id: l.product_id,
    title: l.title,
    subtitle: l.subtitle,
    thumbnail: l.thumbnail,
    product_title: l.product_title,
    product_handle: l.product_handle,
    variant_title: l.variant_title,
    variant_sku: l.variant_sku,
    unit_price: l.unit_price,
    quantity: l.quantity,
    reserved_quantity: managed.has(l.variant_id) ? l.quantity : 0,
    fulfilled_quantity: 0,
    shipped_quantity: 0,
    returned_quantity: 0,
    metadata: l.metadata,
    ...stamps,
  }));
  const orderMethods: q.OrderShippingMethodRow[] = methods.map((m) => ({
    id: newId('ordsm'),
    order_id: id,
    shipping_option_id: m.shipping_option_id,
    name: m.name,
    amount: m.amount,
    data: m.data,
    ...stamps,
  }));
  return {
    order: { ...order, display_id: 0 },
    lines: orderLines,
    methods: orderMethods,
    writes: q.orderWrites(order, orderLines, orderMethods),
  };
}
