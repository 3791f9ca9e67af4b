/** Event names of the interface spec, section 6. */
export const EVENT_NAMES = [
  'order.placed',
  'order.paid',
  'order.fulfilled',
  'order.shipped',
  'order.refunded',
  'order.cancelled',
  'cart.created',
  'cart.updated',
  'cart.abandoned',
  'customer.created',
  'customer.updated',
  'customer.deleted',
  'product.created',
  'product.updated',
  'product.deleted',
  'plugin.installed',
  'plugin.uninstalled',
  'plugin.updated',
  'plugin.license_failed',
] as const;

export type EventName = (typeof EVENT_NAMES)[number];
