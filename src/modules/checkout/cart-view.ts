import { errors } from '../../platform/http/errors.ts';
import { lineView, shippingMethodView, sumTotals } from '../carts/view.ts';
import type { Region } from '../regions/service.ts';
import type { FullCart } from './cart-read.ts';
import type { CartView } from './cart-schema.ts';

/** The cart's region; one deleted under an open cart is the shop's problem, shown as a 400. */
function cartRegion(cart: FullCart): Region {
  if (!cart.region) throw errors.invalid(`Region with id ${cart.region_id} not found`);
  return cart.region;
}

/** The whole cart as the store shows it (Medusa's default fields), from one cart read. */
export function buildCartView(cart: FullCart): CartView {
  const { lines, methods } = cart;
  return {
    id: cart.id,
    email: cart.email,
    currency_code: cart.currency_code,
    region_id: cart.region_id,
    sales_channel_id: cart.sales_channel_id,
    customer_id: cart.customer_id,
    locale: cart.locale ?? null,
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
