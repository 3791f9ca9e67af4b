import type { EventHandler, HttpMethod, Plugin, PluginContext, PluginEvent, RouteHandler } from './context.ts';
import type { PluginPermissions } from './manifest.ts';
import type { NotificationProvider } from './notifications.ts';
import type { PaymentProvider } from './payments.ts';
import type { TaxProvider } from './taxes.ts';
import type { FulfillmentProvider } from './fulfillments.ts';

/** What a plugin's SQL runs against in tests: e.g. a PGlite instance (`new PGlite()`), or a stub. */
export interface TestDatabase {
  query(text: string, params?: unknown[]): Promise<{ rows: unknown[] } | unknown[]>;
}

export interface TestHostOptions {
  /** Plugin id and version as `ctx.plugin` shows them; default `test-plugin` / `0.0.0`. */
  plugin?: { id: string; version: string };
  config?: Record<string, string | number | boolean | undefined>;
  /**
   * The manifest's `permissions`: when given, the test host refuses what they do not allow, as
   * the shop does (undeclared events, routes, providers, read APIs). Omitted: everything allowed.
   */
  permissions?: PluginPermissions;
  /** Orders `ctx.orders.retrieve(id)` answers, by id (shaped as GET /admin/orders/{id} shows them). */
  orders?: Record<string, Record<string, unknown> & { id: string }>;
  db?: TestDatabase;
}

export interface TestResponse {
  status: number;
  body: unknown;
}

export interface TestHost {
  /** Calls the plugin's `register(ctx)`. */
  load(plugin: Plugin): Promise<void>;
  /** Delivers an event to the matching handlers (as the shop would after commit) and waits for them. */
  emit(name: string, payload: Record<string, unknown> & { id: string }): Promise<void>;
  /** Calls a route the plugin registered; a thrown `status` 4xx answers that status, anything else 500. */
  request(
    surface: 'admin' | 'store',
    method: HttpMethod,
    path: string,
    init?: { body?: unknown; query?: Record<string, unknown>; headers?: Record<string, string> },
  ): Promise<TestResponse>;
  /** New configuration: `onConfigure` when the plugin has it, else unload and register again. */
  configure(config: Record<string, string | number | boolean | undefined>): Promise<void>;
  unload(): Promise<void>;
  /** Events the plugin emitted, with its id prefixed as the shop does. */
  readonly emitted: { name: string; payload: Record<string, unknown> }[];
  readonly logs: { level: string; message: string; data?: Record<string, unknown> }[];
  readonly payments: PaymentProvider[];
  readonly notifications: NotificationProvider[];
  readonly taxes: TaxProvider[];
  readonly fulfillments: FulfillmentProvider[];
}

interface Route {
  surface: 'admin' | 'store';
  method: string;
  parts: string[];
  handler: RouteHandler;
}

const covers = (granted: string, asked: string) =>
  granted === '*' || granted === asked || (granted.endsWith('.*') && asked.startsWith(granted.slice(0, -1)));

function matchRoute(route: Route, path: string): Record<string, string> | null {
  const parts = path.split('/').filter(Boolean);
  if (parts.length !== route.parts.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < parts.length; i++) {
    const want = route.parts[i];
    if (want.startsWith(':')) params[want.slice(1)] = decodeURIComponent(parts[i]);
    else if (want !== parts[i]) return null;
  }
  return params;
}

/**
 * An in-memory host for a plugin's unit tests: runs its `register(ctx)`, its event handlers and
 * its routes without a shop. Same rules as the shop for what the plugin sees (JSON copies,
 * emitted events prefixed with the plugin id, declared permissions enforced when given).
 *
 * @example
 * ```ts
 * import { createTestHost } from '@emporium/plugin-sdk';
 * import plugin from '../server/index.js';
 * const host = createTestHost({ config: { note_prefix: 'Hi' }, permissions: manifest.permissions });
 * await host.load(plugin);
 * await host.emit('order.placed', { id: 'order_1', email: 'a@b.c' });
 * expect((await host.request('admin', 'GET', '/notes')).body).toEqual({ notes: [...] });
 * ```
 */
export function createTestHost(opts: TestHostOptions = {}): TestHost {
  const me = opts.plugin ?? { id: 'test-plugin', version: '0.0.0' };
  let config = Object.freeze({ ...(opts.config ?? {}) });
  let subs: { pattern: string; handler: EventHandler }[] = [];
  let routes: Route[] = [];
  let current: Plugin | undefined;
  const emitted: TestHost['emitted'] = [];
  const logs: TestHost['logs'] = [];
  const payments: PaymentProvider[] = [];
  const notifications: NotificationProvider[] = [];
  const taxes: TaxProvider[] = [];
  const fulfillments: FulfillmentProvider[] = [];
  const p = opts.permissions;
  const refuse = (right: string, field: string) => {
    throw Object.assign(new Error(`Plugin ${me.id} may not use ${right}: add it to permissions.${field}`), {
      status: 403,
    });
  };
  const copy = <T>(v: T): T => (v === undefined ? v : JSON.parse(JSON.stringify(v)));

  const route = (surface: 'admin' | 'store') => (method: HttpMethod, path: string, handler: RouteHandler) => {
    if (p && !p.routes?.[surface]) refuse(`route:${surface}`, 'routes');
    routes.push({ surface, method, parts: path.split('/').filter(Boolean), handler });
  };
  const log = (level: string) => (message: string, data?: Record<string, unknown>) =>
    logs.push({ level, message, data });

  const ctx: PluginContext = {
    plugin: me,
    on(eventName: string, handler: EventHandler) {
      if (p && !(p.events ?? []).some((g) => covers(g, eventName))) refuse(`event:${eventName}`, 'events');
      subs.push({ pattern: eventName, handler });
    },
    routes: { admin: route('admin'), store: route('store') },
    db: {
      async query<T>(text: string, params?: unknown[]) {
        if (!opts.db) throw new Error('createTestHost: pass `db` (for instance a PGlite instance) to use ctx.db');
        const res = await opts.db.query(text, params ?? []);
        return (Array.isArray(res) ? res : res.rows) as T[];
      },
    },
    orders: {
      async retrieve(id: string) {
        if (p && !(p.apis ?? []).includes('orders:read')) refuse('api:orders:read', 'apis');
        return copy(opts.orders?.[id] ?? null);
      },
    },
    get config() {
      return config;
    },
    logger: { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') },
    async emit(eventName, payload) {
      emitted.push({ name: `${me.id}.${eventName}`, payload: copy(payload) });
    },
    payments: {
      register(provider) {
        if (p && !(p.providers ?? []).includes('payments')) refuse('provider:payments', 'providers');
        payments.push(provider);
      },
    },
    notifications: {
      register(provider) {
        if (p && !(p.providers ?? []).includes('notifications')) refuse('provider:notifications', 'providers');
        notifications.push(provider);
      },
    },
    taxes: {
      register(provider) {
        if (p && !(p.providers ?? []).includes('taxes')) refuse('provider:taxes', 'providers');
        taxes.push(provider);
      },
    },
    fulfillments: {
      register(provider) {
        if (p && !(p.providers ?? []).includes('fulfillments')) refuse('provider:fulfillments', 'providers');
        fulfillments.push(provider);
      },
    },
  };

  const host: TestHost = {
    emitted,
    logs,
    payments,
    notifications,
    taxes,
    fulfillments,
    async load(plugin) {
      current = plugin;
      await plugin.register(ctx);
    },
    async emit(name, payload) {
      const event: PluginEvent = {
        id: `evt_${emitted.length}_${Date.now()}`,
        name,
        payload: copy(payload),
        created_at: new Date().toISOString(),
      };
      for (const s of subs.filter((s) => covers(s.pattern, name))) await s.handler(copy(event));
    },
    async request(surface, method, path, init = {}) {
      for (const r of routes) {
        const params = r.surface === surface && r.method === method ? matchRoute(r, path) : null;
        if (!params) continue;
        try {
          const body = await r.handler({
            method,
            path,
            params,
            query: init.query ?? {},
            body: copy(init.body ?? null),
            headers: init.headers ?? {},
          });
          return body === undefined ? { status: 204, body: null } : { status: 200, body: copy(body) };
        } catch (err) {
          const status = (err as { status?: unknown }).status;
          const message = String((err as Error).message);
          if (typeof status === 'number' && status >= 400 && status < 500) return { status, body: { message } };
          return { status: 500, body: { message } };
        }
      }
      return { status: 404, body: { message: `Route ${method} ${path} not found` } };
    },
    async configure(next) {
      config = Object.freeze({ ...next });
      if (current?.onConfigure) return void (await current.onConfigure(config));
      const plugin = current;
      await host.unload();
      if (plugin) await host.load(plugin);
    },
    async unload() {
      const plugin = current;
      current = undefined;
      subs = [];
      routes = [];
      payments.length = 0;
      notifications.length = 0;
      taxes.length = 0;
      fulfillments.length = 0;
      await plugin?.unload?.();
    },
  };
  return host;
}
