import type { ChargeTotals } from '../totals/charge-totals.ts';
import type { ChargePricingJson } from '../totals/shapes.ts';
import { chargeView } from '../totals/view.ts';
import type { LineRow, ShippingMethodRow } from './queries.ts';
import type { LineItemView, ShippingMethodView } from './schema.ts';

/** A line or method with its tax lines, discounts and totals (checkout prices the cart: cart-pricing.ts). */
export interface Priced {
  pricing: ChargePricingJson;
  totals: ChargeTotals;
}

export function lineView(l: LineRow, priced: Priced): LineItemView {
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
    product: { id: l.product_id, title: l.product_title, handle: l.product_handle, thumbnail: l.thumbnail },
    variant: { id: l.variant_id, title: l.variant_title, sku: l.variant_sku, product_id: l.product_id },
    metadata: l.metadata ?? null,
    ...chargeView(priced.pricing, priced.totals),
    created_at: l.created_at,
    updated_at: l.updated_at,
  };
}

export function shippingMethodView(m: ShippingMethodRow, priced: Priced): ShippingMethodView {
  return {
    id: m.id,
    cart_id: m.cart_id,
    shipping_option_id: m.shipping_option_id,
    name: m.name,
    amount: m.amount,
    data: m.data ?? null,
    ...chargeView(priced.pricing, priced.totals),
    created_at: m.created_at,
    updated_at: m.updated_at,
  };
}
