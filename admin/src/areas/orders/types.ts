import type { Item, Ok } from '../../api/types.ts';

/** The order as the detail route answers it (generated from the server's schema). */
export type Order = Ok<'/admin/orders/{id}'>['order'];
export type OrderItem = Item<Order['items']>;
export type Payment = Item<Item<Order['payment_collections']>['payments']>;
export type Fulfillment = Item<Order['fulfillments']>;
export type OrderChange = Item<Ok<'/admin/orders/{id}/changes'>['order_changes']>;

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

const CHANGE_NAMES: Record<string, string> = {
  edit: 'Order edit',
  return_request: 'Return request',
  return_receive: 'Return received',
  exchange: 'Exchange',
  claim: 'Claim',
  transfer: 'Transfer',
};

/** Each order change's steps (created, requested, confirmed, declined, canceled) and who took them. */
export function changeEvents(changes: OrderChange[], users: { id: string; email: string }[]): TimelineEvent[] {
  const who = (id: string | null | undefined) => (id ? ` by ${users.find((u) => u.id === id)?.email ?? id}` : '');
  return changes.flatMap((ch) => {
    const name = CHANGE_NAMES[ch.change_type] ?? ch.change_type;
    const steps: [string | null | undefined, string, string | null | undefined][] = [
      [ch.created_at, 'started', ch.created_by],
      [ch.requested_at, 'requested', ch.requested_by],
      [ch.confirmed_at, 'confirmed', ch.confirmed_by],
      [ch.declined_at, 'declined', ch.declined_by],
      [ch.canceled_at, 'canceled', ch.canceled_by],
    ];
    return steps
      .filter(([at]) => !!at)
      .map(([at, verb, by]) => ({ at: String(at), text: `${name} ${verb}${who(by)} (version ${ch.version})` }));
  });
}
