import type { CoreEventName } from '../../../plugin-sdk/events.ts';

/** The core event names; their payload types are the plugin SDK's `CoreEvents`. */
export const EVENT_NAMES = [
  'order.placed',
  'order.paid',
  'order.fulfilled',
  'order.shipped',
  'order.refunded',
  'order.cancelled',
  'order.return_requested',
  'order.return_received',
  'order.edit_confirmed',
  'order.exchange_created',
  'order.claim_created',
  'order.transfer_requested',
  'order.updated',
  'cart.created',
  'cart.updated',
  'cart.abandoned',
  'customer.created',
  'customer.updated',
  'customer.deleted',
  'customer_group.created',
  'customer_group.updated',
  'customer_group.deleted',
  'price_list.created',
  'price_list.updated',
  'price_list.deleted',
  'product.created',
  'product.updated',
  'product.deleted',
  'promotion.created',
  'promotion.updated',
  'promotion.deleted',
  'invite.created',
  'invite.resent',
  'invite.accepted',
  'plugin.installed',
  'plugin.uninstalled',
  'plugin.updated',
  'plugin.license_failed',
  'plugin.failed',
  'plugin.revoked',
  'plugin.rolled_back',
] as const satisfies readonly CoreEventName[];

export type EventName = CoreEventName;

// Compile-time check that the list names every event of the map (a missing one is a type error here).
type Unlisted = Exclude<CoreEventName, (typeof EVENT_NAMES)[number]>;
const everyEventListed: [Unlisted] extends [never] ? true : Unlisted = true;
void everyEventListed;
