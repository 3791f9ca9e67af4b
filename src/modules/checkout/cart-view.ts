import { errors } from '../../platform/http/errors.ts';
import { lineView, shippingMethodView } from '../carts/view.ts';
import { promotionSummary } from '../promotions/view.ts';
import type { Region } from '../regions/service.ts';
import { chargedAmount, totalsView } from '../totals/view.ts';
import type { FullCart } from './cart-read.ts';
import type { CartView } from './cart-schema.ts';
import { priceCart } from '../cart-pricing/price-cart.ts';
import { withProviderTaxes } from '../cart-pricing/provider-taxes.ts';
import type { Ctx } from '../../platform/context.ts';

/** The cart's region; one deleted under an open cart is the shop's problem, shown as a 400. */
function cartRegion(cart: FullCart): Region {
  if (!cart.region) throw errors.invalid('cart_region_missing', { id: cart.region_id });
  return cart.region;
}

// What a view charges (its exact total rounded to the minor unit), kept beside the view.
const charged = new WeakMap<CartView, number>();

/** The amount a payment of this cart moves: its total, rounded half-up to the currency's minor unit. */
export function chargedTotal(view: CartView): number {
  return charged.get(view) ?? Math.round(view.total);
}

/** The cart's view with its tax lines from its tax region's provider (a plugin's, or the built-in rates). */
export async function cartViewOf(ctx: Ctx, cart: FullCart): Promise<CartView> {
  const region = cartRegion(cart);
  const pricing_facts = await withProviderTaxes(ctx, { ...cart, region });
  return buildCartView({ ...cart, pricing_facts }, ctx.clock.now());
}

/** The whole cart as the store shows it (Medusa's default fields), from one cart read, priced at `now`. */
export function buildCartView(cart: FullCart, now: Date): CartView {
  const { lines, methods } = cart;
  const region = cartRegion(cart);
  const priced = priceCart({ ...cart, region }, now);
  const view: CartView = {
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
    items: lines.map((l, i) => lineView(l, { pricing: priced.lines[i], totals: priced.totals.items[i] })),
    shipping_methods: methods.map((m, i) =>
      shippingMethodView(m, { pricing: priced.methods[i], totals: priced.totals.shipping_methods[i] }),
    ),
    region,
    customer: cart.customer_id ? { id: cart.customer_id, email: cart.customer_email } : null,
    payment_collection: cart.payment_collection,
    promotions: priced.promotions.map(promotionSummary),
    ...totalsView(priced.totals),
    completed_at: cart.completed_at,
    created_at: cart.created_at,
    updated_at: cart.updated_at,
  };
  charged.set(view, chargedAmount(priced.totals));
  return view;
}
