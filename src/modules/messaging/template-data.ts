import type { CustomerPayload, FulfillmentPayload, OrderPayload } from '../../../plugin-sdk/events.ts';
import type { OrderView } from '../orders/schema.ts';
import type { AdminOrderView } from '../orders/desk-schema.ts';

/**
 * What the core templates are rendered with, built from the shop's own records. Amounts arrive
 * formatted for reading (`€25.00`), since templates are logic-less; the raw minor units stay
 * beside them for providers that want them.
 */

/** One formatter per currency (making one costs more than formatting; every order placed formats five amounts). */
const formats = new Map<string, { format: Intl.NumberFormat; digits: number } | null>();
function formatOf(currency: string) {
  let f = formats.get(currency);
  if (f === undefined) {
    try {
      const format = new Intl.NumberFormat('en', { style: 'currency', currency: currency.toUpperCase() });
      f = { format, digits: format.resolvedOptions().maximumFractionDigits ?? 2 };
    } catch {
      f = null;
    }
    if (formats.size < 500) formats.set(currency, f);
  }
  return f;
}

/**
 * A tracking URL the email may link to: http(s) only. The admin API takes any text there (Medusa's
 * admin sends "#"), and a `javascript:` link in an email is not the shop's to send.
 */
function webLink(url: string | null | undefined): string | null {
  return url && /^https?:\/\//i.test(url) ? url : null;
}

/** Minor units as a price (`2500`, `eur` → `€25.00`), with the currency's own number of decimals. */
export function money(amount: number, currency: string): string {
  const f = formatOf(currency);
  return f ? f.format.format(amount / 10 ** f.digits) : `${amount} ${currency}`;
}

type Order = OrderView | OrderPayload;

export function orderData(order: Order): Record<string, unknown> {
  const currency = order.currency_code;
  const o = order as OrderView;
  return {
    order_id: order.id,
    display_id: order.display_id,
    email: order.email,
    first_name: order.shipping_address?.first_name ?? null,
    items: order.items.map((i) => ({
      title: i.title,
      quantity: i.quantity,
      unit_price: money(i.unit_price, currency),
      total: money(i.total, currency),
    })),
    item_total: money(o.item_total ?? 0, currency),
    shipping_total: money(o.shipping_total ?? 0, currency),
    total: money(order.total, currency),
    total_amount: order.total,
    currency_code: currency,
  };
}

/** `order.shipped`: the order and the parcel's tracking numbers and links. */
export function shipmentData(order: OrderView, shipment: FulfillmentPayload): Record<string, unknown> {
  const labels = ((shipment.fulfillment as { labels?: unknown[] }).labels ?? []) as {
    tracking_number?: string | null;
    tracking_url?: string | null;
  }[];
  return {
    ...orderData(order),
    fulfillment_id: shipment.fulfillment.id,
    tracking: labels
      .filter((l) => l.tracking_number || l.tracking_url)
      .map((l) => ({ number: l.tracking_number ?? '', url: webLink(l.tracking_url) })),
  };
}

/** `order.refunded`: the order, the latest refund and everything refunded so far. */
export function refundData(order: AdminOrderView): Record<string, unknown> {
  const payments = order.payment_collections.flatMap((pc) => pc.payments);
  const refunds = payments.flatMap((p) => p.refunds ?? []);
  const latest = refunds.sort((a, b) => String(a.created_at).localeCompare(String(b.created_at))).at(-1);
  const total = payments.reduce((s, p) => s + (p.refunded_amount ?? 0), 0);
  return {
    ...orderData(order),
    refund_amount: money(latest?.amount ?? total, order.currency_code),
    refunded_total: money(total, order.currency_code),
  };
}

export function customerData(customer: CustomerPayload): Record<string, unknown> {
  return { customer_id: customer.id, email: customer.email, first_name: customer.first_name ?? null };
}
