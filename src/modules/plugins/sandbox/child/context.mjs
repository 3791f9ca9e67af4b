// The `ctx` a sandboxed plugin's register(ctx) receives: the same shape as the plugin SDK's
// PluginContext, but every call is a message to the shop. What can only be checked here (a handler
// is a function) is checked here with the in-process messages; everything else (event patterns,
// paths, provider ids, rights) is checked by the shop, which never trusts this process.

export const PAYMENT_METHODS = [
  'initiatePayment',
  'authorizePayment',
  'capturePayment',
  'refundPayment',
  'cancelPayment',
  'getPaymentStatus',
  'getWebhookActionAndData',
];

/** A value the channel can carry for a field the shop validates (ids, names). */
const plain = (v) => (v === null || ['string', 'number', 'boolean', 'undefined'].includes(typeof v) ? v : String(v));

/** `port`: call(op, args) → Promise, notify(op, args), handler(fn) → id, provider(obj) → id, config(). */
export function makeContext(meta, port) {
  const route = (surface) => (method, path, handler) => {
    if (typeof handler !== 'function') throw new Error(`Route ${method} ${path} has no handler function`);
    port.notify('route', { surface, method: plain(method), path: plain(path), hid: port.handler(handler) });
  };
  const log = (level) => (message, data) =>
    port.notify('log', { level, message: String(message), data: data && typeof data === 'object' ? { ...data } : {} });
  const provider = (kind, methods) => (impl) => {
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
    on(eventName, handler) {
      if (typeof handler !== 'function') throw new Error(`ctx.on(${eventName}): handler must be a function`);
      port.notify('on', { pattern: plain(eventName), hid: port.handler(handler) });
    },
    routes: { admin: route('admin'), store: route('store') },
    db: {
      query: (text, params) => port.call('db.query', { text: plain(text), params: params ?? [] }),
    },
    get config() {
      return port.config();
    },
    logger: { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') },
    emit: (eventName, payload) => port.call('emit', { name: plain(eventName), payload }),
    orders: { retrieve: (id) => port.call('orders.retrieve', { id: plain(id) }) },
    payments: { register: provider('payment', PAYMENT_METHODS) },
    notifications: { register: provider('notification', ['send']) },
  };
}
