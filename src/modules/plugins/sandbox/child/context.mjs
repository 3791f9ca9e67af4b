// The `ctx` a sandboxed plugin's register(ctx) receives: the same shape as the plugin SDK's
// PluginContext, but every call is a message to the shop. What can only be checked here (a handler
// is a function) is checked here with the in-process messages; everything else (event patterns,
// paths, provider ids, rights) is checked by the shop, which never trusts this process.
// Checked against the channel's one definition (../protocol.ts) by `npm run typecheck`.
// @ts-check
/** @import { CtxPort, Plain } from '../protocol.ts' */

/** What a fulfilment provider may implement (plugin-sdk/fulfillments.ts). */
export const FULFILLMENT_METHODS = [
  'getFulfillmentOptions',
  'validateFulfillmentData',
  'calculatePrice',
  'createFulfillment',
  'cancelFulfillment',
  'createReturnFulfillment',
];

export const PAYMENT_METHODS = [
  'initiatePayment',
  'authorizePayment',
  'capturePayment',
  'refundPayment',
  'cancelPayment',
  'getPaymentStatus',
  'getWebhookActionAndData',
];

/**
 * A value the channel can carry for a field the shop validates (ids, names).
 * @param {unknown} v
 * @returns {Plain}
 */
const plain = (v) =>
  v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || v === undefined
    ? v
    : String(v);

/**
 * The ctx handed to `register(ctx)`, every call a message through `port`.
 * @param {{ id: string, version: string }} meta
 * @param {CtxPort} port
 */
export function makeContext(meta, port) {
  /** @param {'admin' | 'store'} surface */
  const route =
    (surface) => (/** @type {unknown} */ method, /** @type {unknown} */ path, /** @type {unknown} */ handler) => {
      if (typeof handler !== 'function') throw new Error(`Route ${method} ${path} has no handler function`);
      port.notify('route', { surface, method: plain(method), path: plain(path), hid: port.handler(handler) });
    };
  /** @param {'debug' | 'info' | 'warn' | 'error'} level */
  const log = (level) => (/** @type {unknown} */ message, /** @type {unknown} */ data) =>
    port.notify('log', { level, message: String(message), data: data && typeof data === 'object' ? { ...data } : {} });
  /**
   * @param {'payment' | 'notification' | 'tax' | 'fulfillment'} kind
   * @param {string[]} methods
   */
  const provider = (kind, methods) => (/** @type {any} */ impl) => {
    const found = methods.filter((m) => typeof impl?.[m] === 'function');
    port.notify('provider', {
      kind,
      pid: port.provider(impl),
      id: plain(impl?.id),
      name: plain(impl?.name),
      channels: Array.isArray(impl?.channels) ? impl.channels.map(plain) : null,
      methods: found,
    });
  };
  return {
    plugin: { id: meta.id, version: meta.version },
    on(/** @type {unknown} */ eventName, /** @type {unknown} */ handler) {
      if (typeof handler !== 'function') throw new Error(`ctx.on(${eventName}): handler must be a function`);
      port.notify('on', { pattern: plain(eventName), hid: port.handler(handler) });
    },
    routes: { admin: route('admin'), store: route('store') },
    db: {
      query: (/** @type {unknown} */ text, /** @type {unknown[] | undefined} */ params) =>
        port.call('db.query', { text: plain(text), params: params ?? [] }),
    },
    get config() {
      return port.config();
    },
    logger: { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') },
    emit: (/** @type {unknown} */ eventName, /** @type {unknown} */ payload) =>
      port.call('emit', { name: plain(eventName), payload }),
    orders: { retrieve: (/** @type {unknown} */ id) => port.call('orders.retrieve', { id: plain(id) }) },
    payments: { register: provider('payment', PAYMENT_METHODS) },
    notifications: { register: provider('notification', ['send']) },
    taxes: { register: provider('tax', ['getTaxLines']) },
    fulfillments: { register: provider('fulfillment', FULFILLMENT_METHODS) },
  };
}
