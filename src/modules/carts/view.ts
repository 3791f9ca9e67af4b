import { errors } from '../../platform/http/errors.ts';
import type { Region } from '../regions/service.ts';
import type { CartWithCustomer, LineRow, ShippingMethodRow } from './queries.ts';
import type { CartView, LineItemView, ShippingMethodView } from './schema.ts';

/** Totals of a line or method without taxes or discounts (none exist yet): all integers. */
function plainTotals(amount: number) {
  return { subtotal: amount, total: amount, original_total: amount, discount_total: 0, tax_total: 0 };
}

export function lineView(l: LineRow): LineItemView {
  return {
    id: l.id,
    cart_id: l.cart_id,
    title: l.title,
    subtitle: l.subtitle,
    thumbnail: l.thumbnail,
    quantity: l.quantity,
    unit_price: l.unit_price,
    variant_id: l.variant_id,
    product_id: l.product_id,
    product_title: l.product_title,
    product_handle: l.product_handle,
    variant_title: l.variant_title,
    variant_sku: l.variant_sku,
    requires_shipping: true,
    is_discountable: true,
    is_tax_inclusive: false,
    product: { id: l.product_id, title: l.product_title, handle: l.product_handle, thumbnail: l.thumbnail },
    variant: { id: l.variant_id, title: l.variant_title, sku: l.variant_sku, product_id: l.product_id },
    tax_lines: [],
    adjustments: [],
    metadata: l.metadata ?? null,
    ...plainTotals(l.unit_price * l.quantity),
    created_at: l.created_at,
    updated_at: l.updated_at,
  };
}

export function shippingMethodView(m: ShippingMethodRow): ShippingMethodView {
  return {
    id: m.id,
    cart_id: m.cart_id,
    shipping_option_id: m.shipping_option_id,
    name: m.name,
    amount: m.amount,
    is_tax_inclusive: false,
    data: m.data ?? null,
    tax_lines: [],
    adjustments: [],
    ...plainTotals(m.amount),
    created_at: m.created_at,
    updated_at: m.updated_at,
  };
}

/** Cart-level totals from line and method amounts; `total` is what checkout charges. */
export function sumTotals(lines: { unit_price: number; quantity: number }[], methods: { amount: number }[]) {
  const items = lines.reduce((s, l) => s + l.unit_price * l.quantity, 0);
  const shipping = methods.reduce((s, m) => s + m.amount, 0);
  return {
    item_subtotal: items,
    item_total: items,
    item_tax_total: 0,
    shipping_subtotal: shipping,
    shipping_total: shipping,
    shipping_tax_total: 0,
    subtotal: items + shipping,
    tax_total: 0,
    discount_total: 0,
    discount_tax_total: 0,
    original_total: items + shipping,
    total: items + shipping,
  };
}

/** The cart's region; one deleted under an open cart is the shop's problem, shown as a 400. */
export function cartRegion(cart: CartWithCustomer): Region {
  if (!cart.region) throw errors.invalid(`Region with id ${cart.region_id} not found`);
  return cart.region;
}

/** The whole cart as the store shows it (Medusa's default fields), from one cart read. */
export function buildCartView(cart: CartWithCustomer): CartView {
  const { lines, methods } = cart;
  return {
    id: cart.id,
    email: cart.email,
    currency_code: cart.currency_code,
    region_id: cart.region_id,
    sales_channel_id: cart.sales_channel_id,
    customer_id: cart.customer_id,
    metadata: cart.metadata ?? null,
    shipping_address: cart.shipping_address ?? null,
    billing_address: cart.billing_address ?? null,
    items: lines.map(lineView),
    shipping_methods: methods.map(shippingMethodView),
    region: cartRegion(cart),
    customer: cart.customer_id ? { id: cart.customer_id, email: cart.customer_email } : null,
    payment_collection: cart.payment_collection,
    promotions: [],
    ...sumTotals(lines, methods),
    completed_at: cart.completed_at,
    created_at: cart.created_at,
    updated_at: cart.updated_at,
  };
}
