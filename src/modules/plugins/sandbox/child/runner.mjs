// The child side of a sandboxed plugin: one process per plugin, started by the shop with Node's
// permission model (reads only from the plugin's folder and this runner, writes only to a scratch
// folder, no child processes, workers or addons) and an empty environment. It imports the plugin's
// server entry, hands `register(ctx)` a ctx that looks exactly like the in-process one, and turns
// every ctx call into a message to the shop, which checks and performs it. Plain JS on purpose:
// it runs without the shop's TypeScript loader, from src/ or from a compiled bundle alike.
// The messages both ways are the ones ../protocol.ts defines; `npm run typecheck` checks this file against it.
// @ts-check
/** @import { ConfigValues, CtxPort, CtxRequest, HostHandlers, HostRequest, Reply, WireError } from '../protocol.ts' */
import { FULFILLMENT_METHODS, makeContext, PAYMENT_METHODS } from './context.mjs';

/** @type {Map<number, any>} hid → event or route handler */
const handlers = new Map();
/** @type {Map<number, any>} pid → provider object */
const providers = new Map();
/** @type {Map<number, { resolve(value: any): void, reject(err: Error): void }>} ctx calls waiting for the shop */
const pending = new Map();
let nextId = 0;
/** @type {any} the plugin's default export */
let plugin;
/** @type {{ config: ConfigValues }} */
const state = { config: Object.freeze({}) };

/** @param {CtxRequest | Reply} message */
const send = (message) => {
  if (process.connected) process.send?.(message);
};

/** @type {CtxPort['call']} */
function call(op, args) {
  const id = ++nextId;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    send(/** @type {CtxRequest} */ ({ t: 'ctx', id, op, args }));
  });
}

/**
 * @param {Map<number, unknown>} map
 * @param {unknown} value
 */
function keep(map, value) {
  const key = ++nextId;
  map.set(key, value);
  return key;
}

/** @type {CtxPort} */
const ctxPort = {
  call,
  notify: (op, args) => send(/** @type {CtxRequest} */ ({ t: 'ctx', op, args })),
  handler: (fn) => keep(handlers, fn),
  provider: (obj) => keep(providers, obj),
  config: () => state.config,
};

/**
 * @param {unknown} err
 * @returns {WireError}
 */
function errorJson(err) {
  const e = /** @type {any} */ (err ?? {});
  return {
    message: typeof e.message === 'string' && e.message ? e.message : String(err),
    ...(typeof e.status === 'number' ? { status: e.status } : {}),
    ...(typeof e.code === 'string' ? { code: e.code } : {}),
  };
}

/** @type {HostHandlers['load']} */
async function load({ entry, meta, config }) {
  state.config = Object.freeze({ ...config });
  let mod;
  try {
    mod = await import(entry);
  } catch (err) {
    throw Object.assign(new Error(errorJson(err).message), { phase: 'import' });
  }
  plugin = mod.default;
  if (typeof plugin !== 'object' || plugin === null || typeof plugin.register !== 'function') {
    throw Object.assign(
      new Error(`Server entry ${meta.entryName} must default-export an object with a register(ctx) function`),
      {
        phase: 'import',
      },
    );
  }
  await plugin.register(makeContext(meta, ctxPort));
  return { onConfigure: typeof plugin.onConfigure === 'function' };
}

/** @type {HostHandlers['route']} */
async function route({ hid, req }) {
  const result = await handlers.get(hid)(req);
  // Serialized here, so the shop sends the text as is and a non-JSON answer fails in the plugin.
  return result === undefined ? null : JSON.stringify(result);
}

/** @type {HostHandlers['provider']} */
async function provider({ pid, method, input }) {
  const impl = providers.get(pid);
  if (
    !impl ||
    typeof impl[method] !== 'function' ||
    !PAYMENT_METHODS.concat(FULFILLMENT_METHODS, ['send', 'getTaxLines']).includes(method)
  )
    throw new Error(`no provider method ${method}`);
  return impl[method](input);
}

/** @type {HostHandlers} */
const ops = {
  load,
  route,
  provider,
  event: async ({ hid, event }) => void (await handlers.get(hid)(event)),
  configure: async ({ config }) => {
    state.config = Object.freeze({ ...config });
    await plugin?.onConfigure?.(state.config);
  },
  unload: async () => void (await plugin?.unload?.()),
  stats: async () => {
    const m = process.memoryUsage();
    return { rss: m.rss, heap_used: m.heapUsed, heap_total: m.heapTotal };
  },
  ping: async () => /** @type {const} */ ('pong'),
};

process.on('message', (/** @type {any} */ msg) => {
  if (msg?.t === 'res') {
    const waiting = pending.get(msg.id);
    pending.delete(msg.id);
    if (!waiting) return;
    if (msg.ok) waiting.resolve(msg.value);
    else waiting.reject(Object.assign(new Error(msg.error?.message ?? 'refused'), msg.error ?? {}));
    return;
  }
  if (msg?.t !== 'req') return;
  const req = /** @type {HostRequest} */ (msg);
  const op = /** @type {(args: HostRequest['args']) => Promise<unknown>} */ (ops[req.op]);
  Promise.resolve()
    .then(() => op(req.args ?? {}))
    .then(
      (value) => send({ t: 'res', id: req.id, ok: true, value }),
      (err) => send({ t: 'res', id: req.id, ok: false, error: { ...errorJson(err), phase: err?.phase } }),
    )
    .catch((err) => send({ t: 'res', id: req.id, ok: false, error: errorJson(err) }));
});

// A plugin's stray rejection or throw must not look like a crash of the runner: logged to the shop.
process.on('unhandledRejection', (err) =>
  ctxPort.notify('log', { level: 'error', message: 'unhandled rejection', data: { ...errorJson(err) } }),
);
process.on('uncaughtException', (err) =>
  ctxPort.notify('log', { level: 'error', message: 'uncaught exception', data: { ...errorJson(err) } }),
);
// The shop closed the channel (it stopped or dropped this plugin): nothing left to serve.
process.on('disconnect', () => process.exit(0));
