/**
 * The shop's core events and what each carries: one map from event name to payload type, used by
 * the shop's own `emit()` and subscribers and by plugins' `ctx.on(…)`, so a wrong payload is a
 * compile error on both sides. Payloads are the resource as the admin API shows it, with its `id`;
 * the fields listed are the ones a subscriber can rely on (the real payload may carry more).
 * Timestamps arrive as ISO 8601 strings, money as integers in the currency's minor unit.
 */

/** Fields beyond the ones listed may be present; they are not part of the contract. */
interface Open {
  [key: string]: unknown;
}

type Timestamp = string | Date;

export interface AddressPayload extends Open {
  first_name?: string | null;
  last_name?: string | null;
  address_1?: string | null;
  city?: string | null;
  postal_code?: string | null;
  country_code?: string | null;
}

export interface LinePayload extends Open {
  id: string;
  title: string;
  /** Null on a custom line of an order made from a draft (a title and a price). */
  variant_id: string | null;
  product_id: string | null;
  quantity: number;
  unit_price: number;
  total: number;
}

export interface CartPayload extends Open {
  id: string;
  email: string | null;
  currency_code: string;
  region_id: string;
  customer_id: string | null;
  items: LinePayload[];
  total: number;
  completed_at: Timestamp | null;
}

/** `cart.abandoned`: the cart as it was when it went idle, and when that was noticed. */
export interface AbandonedCartPayload extends Open {
  id: string;
  email: string | null;
  abandoned_at: Timestamp;
}

export interface OrderPayload extends Open {
  id: string;
  display_id: number;
  status: string;
  payment_status: string;
  fulfillment_status: string;
  email: string;
  customer_id: string | null;
  currency_code: string;
  shipping_address: AddressPayload | null;
  items: (LinePayload & { order_id: string })[];
  total: number;
  created_at: Timestamp;
}

/** `order.fulfilled` and `order.shipped`: the order id and the fulfillment that moved. */
export interface FulfillmentPayload extends Open {
  id: string;
  order_id: string;
  fulfillment: { id: string; items: { line_item_id: string; quantity: number }[] } & Open;
  no_notification: boolean;
}

/** `order.return_requested`, `order.return_received`: the order (`id`) and its return. */
export interface ReturnPayload extends Open {
  id: string;
  order_id: string;
  return_id: string;
  no_notification: boolean;
}

/** `order.edit_confirmed`: the order (`id`) and the order change that was confirmed. */
export interface OrderChangePayload extends Open {
  id: string;
  order_id: string;
  order_change_id: string;
  version: number;
}

/**
 * `order.exchange_created`, `order.claim_created`: the order (`id`), the exchange or claim
 * confirmed, its order change and version, and its return (null without items back).
 */
export interface OrderSwapPayload extends Open {
  id: string;
  order_id: string;
  exchange_id?: string;
  claim_id?: string;
  order_change_id: string;
  version: number;
  return_id: string | null;
  no_notification: boolean;
}

export interface CustomerPayload extends Open {
  id: string;
  email: string | null;
  first_name: string | null;
  last_name: string | null;
  has_account: boolean;
}

export interface ProductPayload extends Open {
  id: string;
  title: string;
  handle: string;
  status: string;
  variants: ({ id: string; title: string; inventory_quantity: number } & Open)[];
}

/** `promotion.created` and `promotion.updated`. */
export interface PromotionPayload extends Open {
  id: string;
  code: string;
  type: string;
  status: string;
  is_automatic: boolean;
}

/** A deleted resource: only its id is left. */
export interface DeletedPayload {
  id: string;
}

export interface PluginRowPayload extends Open {
  id: string;
  manifest_id: string;
  marketplace_id: string;
  version: string;
  status: string;
}

export interface CustomerGroupPayload extends Open {
  id: string;
  name: string;
  metadata: Record<string, unknown> | null;
}

export interface PriceListPayload extends Open {
  id: string;
  title: string;
  type: 'sale' | 'override';
  status: 'draft' | 'active';
  starts_at: Timestamp | null;
  ends_at: Timestamp | null;
  rules: Record<string, string[]>;
}

/** `invite.created`, `invite.resent` and `invite.accepted` (with the new user's id): never the token. */
export interface InvitePayload extends Open {
  id: string;
  email: string;
  role: string;
  expires_at: Timestamp;
  user_id?: string;
}

/** Every core event and its payload. */
export interface CoreEvents {
  'order.placed': OrderPayload;
  'order.paid': OrderPayload;
  'order.fulfilled': FulfillmentPayload;
  'order.shipped': FulfillmentPayload;
  'order.refunded': OrderPayload;
  'order.cancelled': OrderPayload;
  'order.return_requested': ReturnPayload;
  'order.return_received': ReturnPayload;
  'order.edit_confirmed': OrderChangePayload;
  'order.exchange_created': OrderSwapPayload;
  'order.claim_created': OrderSwapPayload;
  /** A transfer of the order to a customer was requested (by the customer or an operator). */
  'order.transfer_requested': { id: string; order_change_id: string };
  /** An operator changed the order's email, addresses or metadata (`POST /admin/orders/{id}`). */
  'order.updated': { id: string };
  'cart.created': CartPayload;
  'cart.updated': CartPayload;
  'cart.abandoned': AbandonedCartPayload;
  'customer.created': CustomerPayload;
  'customer.updated': CustomerPayload;
  'customer.deleted': DeletedPayload;
  'customer_group.created': CustomerGroupPayload;
  'customer_group.updated': CustomerGroupPayload;
  'customer_group.deleted': DeletedPayload;
  'price_list.created': PriceListPayload;
  'price_list.updated': PriceListPayload;
  'price_list.deleted': DeletedPayload;
  'product.created': ProductPayload;
  'product.updated': ProductPayload;
  'product.deleted': DeletedPayload;
  'promotion.created': PromotionPayload;
  'promotion.updated': PromotionPayload;
  'promotion.deleted': DeletedPayload;
  'invite.created': InvitePayload;
  'invite.resent': InvitePayload;
  'invite.accepted': InvitePayload;
  'plugin.installed': PluginRowPayload;
  'plugin.uninstalled': PluginRowPayload;
  'plugin.updated': PluginRowPayload;
  'plugin.license_failed': PluginRowPayload & { reason: string };
  /** The plugin's process kept crashing (PLUGIN_MAX_CRASHES within the window): it is set `failed`. */
  'plugin.failed': PluginRowPayload & { reason: string };
  /** The marketplace revoked the installed version: `critical` stopped the plugin, `warning` left it running. */
  'plugin.revoked': PluginRowPayload & { severity: 'critical' | 'warning'; reason: string };
  /** An update crash-looped within PLUGIN_ROLLBACK_WINDOW_MS and the shop went back to the previous version. */
  'plugin.rolled_back': PluginRowPayload & { from: string; to: string; reason: string };
}

export type CoreEventName = keyof CoreEvents;

/** A plugin's own events are namespaced `<manifest id>.<name>`; their payload is free-form with an `id`. */
export type CustomEventPayload = Record<string, unknown> & { id: string };
