import type { CustomerPayload, FulfillmentPayload } from '../../../plugin-sdk/events.ts';
import { sql } from 'drizzle-orm';
import type { Ctx } from '../../platform/context.ts';
import type { Part } from '../../platform/db/one-statement.ts';
import { textArray } from '../../platform/db/prepared.ts';
import type { EventMessage } from '../../platform/events/bus.ts';
import type { DurableSink } from '../../platform/events/dispatcher.ts';
import { loadOrderView } from '../orders/service.ts';
import type { AdminOrderView } from '../orders/desk-schema.ts';
import type { OrderView } from '../orders/schema.ts';
import { NOTIFICATIONS_CHANNEL } from './queries.ts';
import { messageWrites, type MessageInput, type QueueDeps } from './queue.ts';
import { customerData, orderData, refundData, shipmentData } from './template-data.ts';

/** An order as the events carry it; anything else (a hand-made test event) is not messaged. */
const isOrder = (x: unknown): x is OrderView => {
  const o = x as Partial<OrderView> | null;
  return typeof o?.id === 'string' && typeof o.email === 'string' && Array.isArray(o.items) && !!o.currency_code;
};
/** order.refunded's payload: the order desk's view, whose payments list their refunds. */
const isDeskOrder = (x: unknown): x is AdminOrderView => isOrder(x) && Array.isArray(x.payment_collections);
/** order.shipped's payload (stored JSON): the fields read are checked. */
const isShipment = (x: unknown): x is FulfillmentPayload => {
  const s = x as Partial<FulfillmentPayload> | null;
  return typeof s?.order_id === 'string' && !!s.fulfillment;
};
/** customer.created's payload (stored JSON): the fields read are checked. */
const isCustomer = (x: unknown): x is CustomerPayload => {
  const c = x as Partial<CustomerPayload> | null;
  return typeof c?.id === 'string' && typeof c.email === 'string';
};

/** The events a core template covers: messageFor answers null for any other. */
const MESSAGE_EVENTS = ['order.placed', 'order.shipped', 'order.refunded', 'customer.created'];

/** The message an event calls for, or null (not one the core templates cover, or nobody to tell). */
async function messageFor(ctx: Ctx, e: EventMessage): Promise<MessageInput | null> {
  switch (e.name) {
    case 'order.placed': {
      const order = e.payload;
      if (!isOrder(order)) return null;
      const resource = { type: 'order', id: order.id };
      return {
        to: order.email,
        template: e.name,
        data: orderData(order),
        dedupeKey: `${e.name}:${order.id}`,
        resource,
      };
    }
    case 'order.shipped': {
      const shipment = e.payload;
      if (!isShipment(shipment) || shipment.no_notification) return null;
      const order = await loadOrderView(ctx, shipment.order_id);
      if (!order) return null;
      return {
        to: order.email,
        template: e.name,
        data: shipmentData(order, shipment),
        dedupeKey: `${e.name}:${shipment.fulfillment.id}`,
        resource: { type: 'order', id: order.id },
      };
    }
    case 'order.refunded': {
      const order = e.payload;
      if (!isDeskOrder(order)) return null;
      const resource = { type: 'order', id: order.id };
      return { to: order.email, template: e.name, data: refundData(order), dedupeKey: `${e.name}:${e.id}`, resource };
    }
    case 'customer.created': {
      const customer = e.payload;
      // Guests the admin records get no welcome: only shoppers who opened an account.
      if (!isCustomer(customer) || !customer.has_account || typeof customer.email !== 'string') return null;
      return {
        to: customer.email,
        template: e.name,
        data: customerData(customer),
        dedupeKey: `${e.name}:${customer.id}`,
        resource: { type: 'customer', id: customer.id },
      };
    }
    default:
      return null;
  }
}

/**
 * The dispatcher's durable sink for the shop's own messages: with the statement that marks a
 * batch of events dispatched, queue the order confirmation, shipping notice, refund notice and
 * welcome they call for (once per event, by dedupe key), for the sender to deliver.
 */
export function notificationFanOut(deps: QueueDeps): DurableSink {
  return {
    wants: (name) => sql`${name} = any(${textArray(MESSAGE_EVENTS)})`,
    async write(ctx, events) {
      const writes: Part[] = [];
      let pending = false;
      for (const [i, e] of events.entries()) {
        const message = await messageFor(ctx, e);
        if (!message) continue;
        const queued = messageWrites(ctx, deps, message, `message${i}`);
        writes.push(...queued.writes);
        pending ||= queued.pending;
      }
      return { writes, queued: pending, notify: pending ? [NOTIFICATIONS_CHANNEL] : [] };
    },
  };
}
