import { paymentStatus, type PaymentRow } from '../payments/ledger.ts';
import type { FulfillmentRow } from './desk-queries.ts';
import type { OrderLineRow } from './queries.ts';
import type { OrderFulfillmentStatus, OrderPaymentStatus } from './tables.ts';

/**
 * The order's payment_status and fulfillment_status are derived from its payments and
 * fulfillments after every transition (and stored, so lists can filter on them).
 */

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

export function orderPaymentStatus(payments: PaymentRow[]): OrderPaymentStatus {
  if (!payments.length) return 'not_paid';
  const statuses = payments.map(paymentStatus);
  if (statuses.every((s) => s === 'canceled')) return 'canceled';
  const captured = sum(payments.map((p) => p.captured_amount));
  const refunded = sum(payments.map((p) => p.refunded_amount));
  if (refunded > 0) return refunded >= captured ? 'refunded' : 'partially_refunded';
  // A released authorization no longer counts toward what is due.
  const due = sum(payments.filter((p) => !p.canceled_at).map((p) => p.amount));
  if (captured > 0) return captured >= due ? 'captured' : 'partially_captured';
  return 'authorized';
}

/** Units of each line in fulfillments that were delivered (and not canceled). */
export function deliveredByLine(fulfillments: FulfillmentRow[]): Map<string, number> {
  const delivered = new Map<string, number>();
  for (const f of fulfillments) {
    if (!f.delivered_at || f.canceled_at) continue;
    for (const item of f.items)
      delivered.set(item.line_item_id, (delivered.get(item.line_item_id) ?? 0) + item.quantity);
  }
  return delivered;
}

/** The furthest stage all units reached names the status; a stage some units reached makes it partial. */
export function orderFulfillmentStatus(lines: OrderLineRow[], fulfillments: FulfillmentRow[]): OrderFulfillmentStatus {
  const total = sum(lines.map((l) => l.quantity));
  const delivered = sum([...deliveredByLine(fulfillments).values()]);
  const shipped = sum(lines.map((l) => l.shipped_quantity));
  const fulfilled = sum(lines.map((l) => l.fulfilled_quantity));
  if (delivered > 0) return delivered >= total ? 'delivered' : 'partially_delivered';
  if (shipped > 0) return shipped >= total ? 'shipped' : 'partially_shipped';
  if (fulfilled > 0) return fulfilled >= total ? 'fulfilled' : 'partially_fulfilled';
  return 'not_fulfilled';
}
