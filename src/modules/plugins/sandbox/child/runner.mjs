// The child side of a sandboxed plugin: one process per plugin, started by the shop with Node's
// permission model (reads only from the plugin's folder and this runner, writes only to a scratch
// folder, no child processes, workers or addons) and an empty environment. It imports the plugin's
// server entry, hands `register(ctx)` a ctx that looks exactly like the in-process one, and turns
// every ctx call into a message to the shop, which checks and performs it. Plain JS on purpose:
// it runs without the shop's TypeScript loader, from src/ or from a compiled bundle alike.
import { makeContext, PAYMENT_METHODS } from './context.mjs';

const handlers = new Map(); // hid → event or route handler
const providers = new Map(); // pid → provider object
const pending = new Map(); // id → { resolve, reject } of ctx calls waiting for the shop
let nextId = 0;
let plugin;
const state = { config: Object.freeze({}) };

const send = (message) => {
  if (process.connected) process.send(message);
};

function call(op, args) {
  const id = ++nextId;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    send({ t: 'ctx', id, op, args });
  });
}

function keep(map, value) {
  const key = ++nextId;
  map.set(key, value);
  return key;
}

const ctxPort = {
  call,
  notify: (op, args) => send({ t: 'ctx', op, args }),
  handler: (fn) => keep(handlers, fn),
  provider: (obj) => keep(providers, obj),
  config: () => state.config,
};

function errorJson(err) {
  const e = err ?? {};
  return {
    message: typeof e.message === 'string' && e.message ? e.message : String(err),
    ...(typeof e.status === 'number' ? { status: e.status } : {}),
    ...(typeof e.code === 'string' ? { code: e.code } : {}),
  };
}

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

async function route({ hid, req }) {
  const result = await handlers.get(hid)(req);
  // Serialized here, so the shop sends the text as is and a non-JSON answer fails in the plugin.
  return result === undefined ? null : JSON.stringify(result);
}

async function provider({ pid, method, input }) {
  const impl = providers.get(pid);
  if (!impl || typeof impl[method] !== 'function' || !PAYMENT_METHODS.concat(['send']).includes(method))
    throw new Error(`no provider method ${method}`);
  return impl[method](input);
}

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
  ping: async () => 'pong',
};

process.on('message', (msg) => {
  if (msg?.t === 'res') {
    const waiting = pending.get(msg.id);
    pending.delete(msg.id);
    if (!waiting) return;
    if (msg.ok) waiting.resolve(msg.value);
    else waiting.reject(Object.assign(new Error(msg.error?.message ?? 'refused'), msg.error ?? {}));
    return;
  }
  if (msg?.t !== 'req') return;
  const op = ops[msg.op];
  Promise.resolve()
    .then(() => op(msg.args ?? {}))
    .then(
      (value) => send({ t: 'res', id: msg.id, ok: true, value }),
      (err) => send({ t: 'res', id: msg.id, ok: false, error: { ...errorJson(err), phase: err?.phase } }),
    )
    .catch((err) => send({ t: 'res', id: msg.id, ok: false, error: errorJson(err) }));
});

// A plugin's stray rejection or throw must not look like a crash of the runner: logged to the shop.
process.on('unhandledRejection', (err) =>
  ctxPort.notify('log', { level: 'error', message: 'unhandled rejection', data: errorJson(err) }),
);
process.on('uncaughtException', (err) =>
  ctxPort.notify('log', { level: 'error', message: 'uncaught exception', data: errorJson(err) }),
);
// The shop closed the channel (it stopped or dropped this plugin): nothing left to serve.
process.on('disconnect', () => process.exit(0));
