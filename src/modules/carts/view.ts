import type { LineRow, ShippingMethodRow } from './queries.ts';
import type { LineItemView, ShippingMethodView } from './schema.ts';

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
