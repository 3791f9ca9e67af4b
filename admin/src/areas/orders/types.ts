export interface OrderItem {
  id: string;
  title: string;
  variant_title: string;
  variant_sku: string | null;
  unit_price: number;
  quantity: number;
  total: number;
  detail: { quantity: number; fulfilled_quantity: number; shipped_quantity: number; delivered_quantity: number };
}

export interface Payment {
  id: string;
  provider_id: string;
  amount: number;
  status: string;
  captured_amount: number;
  refunded_amount: number;
  captured_at: string | null;
  canceled_at: string | null;
  created_at: string;
  captures: { id: string; amount: number; created_at: string }[];
  refunds: { id: string; amount: number; reason: string | null; note: string | null; created_at: string }[];
}

export interface Fulfillment {
  id: string;
  items: { id: string; line_item_id: string; title: string; sku: string | null; quantity: number }[];
  shipped_at: string | null;
  delivered_at: string | null;
  canceled_at: string | null;
  created_at: string;
}

export interface Order {
  id: string;
  display_id: number;
  status: string;
  payment_status: string;
  fulfillment_status: string;
  customer_id: string | null;
  email: string;
  currency_code: string;
  items: OrderItem[];
  payment_collections: { payments: Payment[] }[];
  fulfillments: Fulfillment[];
  item_total: number;
  shipping_total: number;
  total: number;
  summary: {
    authorized_total: number;
    captured_total: number;
    refunded_total: number;
    /** Everything captured (refunds are not subtracted: see transaction_total). */
    paid_total: number;
    transaction_total: number;
    original_order_total: number;
    current_order_total: number;
    /** Owed by the shopper (> 0) or to them (< 0). */
    pending_difference: number;
  };
  shipping_address: Record<string, string | null> | null;
  canceled_at: string | null;
  created_at: string;
}

export const ORDER_STATUSES = ['pending', 'completed', 'draft', 'archived', 'canceled', 'requires_action'];
export const PAYMENT_STATUSES = [
  'authorized',
  'partially_captured',
  'captured',
  'partially_refunded',
  'refunded',
  'canceled',
];
export const FULFILLMENT_STATUSES = [
  'not_fulfilled',
  'partially_fulfilled',
  'fulfilled',
  'partially_shipped',
  'shipped',
  'partially_delivered',
  'delivered',
  'canceled',
];

/** The order's history from its own records: placed, captures, refunds, fulfilments, shipments, deliveries, cancellation. */
export interface TimelineEvent {
  at: string;
  text: string;
  amount?: number;
}

export function timeline(o: Order): TimelineEvent[] {
  const events: TimelineEvent[] = [{ at: o.created_at, text: 'Order placed' }];
  for (const p of o.payment_collections.flatMap((c) => c.payments)) {
    for (const c of p.captures) events.push({ at: c.created_at, text: 'Payment captured', amount: c.amount });
    for (const r of p.refunds)
      events.push({
        at: r.created_at,
        text: `Refunded${r.reason ? `: ${r.reason}` : ''}${r.note ? ` (${r.note})` : ''}`,
        amount: r.amount,
      });
  }
  for (const f of o.fulfillments) {
    const n = f.items.reduce((s, i) => s + i.quantity, 0);
    events.push({ at: f.created_at, text: `Fulfilled ${n} item${n === 1 ? '' : 's'}` });
    if (f.shipped_at) events.push({ at: f.shipped_at, text: 'Shipped' });
    if (f.delivered_at) events.push({ at: f.delivered_at, text: 'Delivered' });
    if (f.canceled_at) events.push({ at: f.canceled_at, text: 'Fulfillment canceled' });
  }
  if (o.canceled_at) events.push({ at: o.canceled_at, text: 'Order canceled' });
  return events.sort((a, b) => a.at.localeCompare(b.at));
}
