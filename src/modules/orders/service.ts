import type { NamedPart } from '../../platform/db/one-statement.ts';
import { newId } from '../../platform/ids.ts';
import { executor, type Ctx } from '../../platform/context.ts';
import type { CartRow, LineRow, ShippingMethodRow } from '../carts/queries.ts';
import type { PricingFacts } from '../cart-pricing/facts.ts';
import { priceCart } from '../cart-pricing/price-cart.ts';
import { promotionUsageWrites } from '../promotions/budget.ts';
import { errors } from '../../platform/http/errors.ts';
import type { ChargeTotals } from '../totals/charge-totals.ts';
import { chargedAmount, chargeView, NO_PRICING, pricedTotals, totalsView } from '../totals/view.ts';
import { orderPaymentCollections } from '../payments/ledger.ts';
import type { OrderPaymentCollectionView } from '../payments/schema.ts';
import type { CreditLineRow } from './changes/queries.ts';
import type { OrderCreditLineView } from './changes/schema.ts';
import { creditedTotals } from './changes/summary.ts';
import { findCreditedOrderRow } from './credited-queries.ts';
import * as q from './queries.ts';
import type { CreditedOrderView, OrderLineItemView, OrderShippingMethodView, OrderView } from './schema.ts';

export function orderLineView(l: q.OrderLineRow, totals: ChargeTotals): OrderLineItemView {
  const { reserved_quantity: _r, fulfilled_quantity, shipped_quantity, returned_quantity, pricing, ...rest } = l;
  return {
    ...rest,
    metadata: l.metadata ?? null,
    requires_shipping: true,
    is_discountable: true,
    detail: { quantity: l.quantity, fulfilled_quantity, shipped_quantity, returned_quantity },
    // A custom line (a draft order's title and price) has neither.
    product: l.product_id
      ? { id: l.product_id, title: l.product_title, handle: l.product_handle, thumbnail: l.thumbnail }
      : null,
    variant:
      l.variant_id && l.product_id
        ? { id: l.variant_id, title: l.variant_title, sku: l.variant_sku, product_id: l.product_id }
        : null,
    ...chargeView(pricing ?? NO_PRICING, totals),
  };
}

export function orderShippingMethodView(m: q.OrderShippingMethodRow, totals: ChargeTotals): OrderShippingMethodView {
  const { pricing, ...rest } = m;
  return { ...rest, data: m.data ?? null, ...chargeView(pricing ?? NO_PRICING, totals) };
}

/**
 * The order as the API shows it (Medusa's default fields). Its totals are computed from what each
 * line kept at placement (price, tax lines, discounts), with the same engine as the cart's, so
 * they are the cart's totals at checkout and never move.
 */
export function orderView(
  o: q.OrderRow,
  lines: q.OrderLineRow[],
  methods: q.OrderShippingMethodRow[],
  paymentCollections: OrderPaymentCollectionView[],
): OrderView {
  const totals = pricedTotals(lines, methods);
  // The import's external_id is the order desk's (desk-view.ts, listing.ts): not the store's, nor in events.
  const { external_id: _external, ...row } = o;
  return {
    ...row,
    metadata: o.metadata ?? null,
    shipping_address: o.shipping_address ?? null,
    billing_address: o.billing_address ?? null,
    items: lines.map((l, i) => orderLineView(l, totals.items[i])),
    shipping_methods: methods.map((m, i) => orderShippingMethodView(m, totals.shipping_methods[i])),
    payment_collections: paymentCollections,
    ...totalsView(totals),
  };
}

export const creditLineView = ({ version: _v, ...l }: CreditLineRow): OrderCreditLineView => ({
  ...l,
  metadata: l.metadata ?? null,
});

/**
 * A view of an order with its credit lines (oldest first) counted as every view counts them
 * (`creditedTotals`): `total` less what they take off, and Medusa's `credit_line_*` totals beside it.
 */
export function withCreditLines<V extends { total: number }>(view: V, credits: CreditLineRow[]) {
  const { sum: _sum, ...totals } = creditedTotals(view.total, credits);
  return { ...view, ...totals, credit_lines: credits.map(creditLineView) };
}

/**
 * The whole order with its credit lines, or null; served from the caller's transaction when there
 * is one. The credit lines come with the order row (one statement), so checkout's answer for a cart
 * completed again and the shipping notice show the total every other view shows.
 */
export async function loadOrderView(ctx: Ctx, id: string): Promise<CreditedOrderView | null> {
  const db = executor(ctx);
  const found = await findCreditedOrderRow(db, id);
  if (!found) return null;
  const { credit_lines, ...order } = found;
  const lines = await q.listOrderLines(db, id);
  const methods = await q.listOrderShippingMethods(db, id);
  return withCreditLines(orderView(order, lines, methods, await orderPaymentCollections(db, id)), credit_lines);
}

export async function findOrderIdByCart(ctx: Ctx, cartId: string): Promise<string | undefined> {
  return q.findOrderIdByCart(executor(ctx), cartId);
}

const budgetSpent = (code: string) => errors.notAllowed('promotion_budget_exhausted', { code });

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
  cart: CartRow & { email: string; pricing_facts?: PricingFacts; region_automatic_taxes?: boolean },
  lines: LineRow[],
  methods: ShippingMethodRow[],
  managed: Set<string>,
): PlacedOrder {
  const now = ctx.clock.now();
  const priced = cart.pricing_facts
    ? priceCart(
        {
          ...cart,
          lines,
          methods,
          region: { automatic_taxes: cart.region_automatic_taxes ?? true },
          pricing_facts: cart.pricing_facts,
        },
        now,
      )
    : null;
  // A code the shopper applied that no longer fits its budget refuses the order (automatic ones just stop applying).
  const applied = new Set(cart.pricing_facts?.promotions.filter((p) => p.applied).map((p) => p.promotion.code));
  const spent = priced?.exceeded.find(
    (code) => applied.has(code) && priced.promotions.every((p) => p.promotion.code !== code),
  );
  if (spent) throw budgetSpent(spent);
  const linePricing = (i: number) => priced?.lines[i] ?? null;
  const methodPricing = (i: number) => priced?.methods[i] ?? null;
  const totals = pricedTotals(
    lines.map((l, i) => ({ ...l, pricing: linePricing(i) })),
    methods.map((m, i) => ({ ...m, pricing: methodPricing(i) })),
  );
  // The order row keeps whole minor units (what payments move); its view shows the exact totals.
  const whole = (d: { integerValue: (mode: 4) => { toNumber: () => number } }) => d.integerValue(4).toNumber();
  const id = newId('order');
  const stamps = { created_at: now, updated_at: now };
  const order = {
    id,
    status: 'pending' as const,
    payment_status: 'authorized' as const,
    fulfillment_status: 'not_fulfilled' as const,
    cart_id: cart.id,
    is_draft_order: false,
    customer_id: cart.customer_id,
    external_id: null,
    email: cart.email,
    region_id: cart.region_id,
    sales_channel_id: cart.sales_channel_id,
    currency_code: cart.currency_code,
    shipping_address: cart.shipping_address,
    billing_address: cart.billing_address,
    item_total: whole(totals.item_total),
    shipping_total: whole(totals.shipping_total),
    tax_total: whole(totals.tax_total),
    discount_total: whole(totals.discount_total),
    total: chargedAmount(totals),
    metadata: cart.metadata,
    canceled_at: null,
    ...stamps,
  };
  const orderLines: q.OrderLineRow[] = lines.map((l, i) => ({
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
    pricing: linePricing(i),
    metadata: l.metadata,
    ...stamps,
  }));
  const orderMethods: q.OrderShippingMethodRow[] = methods.map((m, i) => ({
    id: newId('ordsm'),
    order_id: id,
    shipping_option_id: m.shipping_option_id,
    name: m.name,
    amount: m.amount,
    data: m.data,
    pricing: methodPricing(i),
    ...stamps,
  }));
  return {
    order: { ...order, display_id: 0 },
    lines: orderLines,
    methods: orderMethods,
    writes: [
      ...q.orderWrites(order, orderLines, orderMethods),
      ...(priced ? promotionUsageWrites(id, priced.promotions, priced.adjustments, now) : []),
    ],
  };
}
