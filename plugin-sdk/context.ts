import type { CoreEventName, CoreEvents } from './events.ts';
import type { NotificationProvider } from './notifications.ts';
import type { PaymentProvider } from './payments.ts';
import type { TaxProvider } from './taxes.ts';
import type { FulfillmentProvider } from './fulfillments.ts';

/** An event as a subscriber receives it, after the change it describes was committed. */
export interface PluginEvent<P extends object = Record<string, unknown>> {
  /** Stable event id: a handler may see the same event twice, so it should be idempotent. */
  id: string;
  /** e.g. `order.placed`. */
  name: string;
  /** The resource, carrying its `id` (for core events, typed by {@link CoreEvents}). */
  payload: P & { id: string };
  created_at: Date | string;
}

export type EventHandler = (event: PluginEvent) => void | Promise<void>;

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What a route handler gets. */
export interface PluginRequest {
  method: HttpMethod;
  /** The path below the plugin's mount point, e.g. `/notes/42`. */
  path: string;
  /** `:name` segments of the registered path. */
  params: Record<string, string>;
  query: Record<string, unknown>;
  /** The parsed JSON body, or null. */
  body: unknown;
  /** The request headers, without `authorization` and `cookie` (the caller's credentials stay with the shop). */
  headers: Record<string, string | string[] | undefined>;
}

/**
 * A handler answers with a JSON-serialisable value (status 200; `undefined` answers 204). To
 * refuse a request, throw an error with a numeric `status` between 400 and 499 (answered with
 * that status as `{ type, message }`); any other throw answers 500 and is logged and counted
 * against the plugin, never crashing the shop. A handler that has not answered after
 * `PLUGIN_ROUTE_TIMEOUT_MS` (default 10 s) gets a 504.
 *
 * @example
 * ```js
 * ctx.routes.admin('GET', '/notes/:orderId', async (req) => {
 *   const [note] = await ctx.db.query('select * from order_notes where order_id = $1', [req.params.orderId]);
 *   if (!note) throw Object.assign(new Error('No note for this order'), { status: 404 });
 *   return { note };
 * });
 * ```
 */
export type RouteHandler = (req: PluginRequest) => unknown | Promise<unknown>;

/**
 * A plugin's HTTP routes. `path` starts with `/` and may hold `:name` parameters; routes are
 * live as soon as the plugin is installed and gone when it is uninstalled (no restart).
 */
export interface PluginRoutes {
  /**
   * Mounted at `/admin/plugins/<manifest id><path>`, behind the admin authentication (viewers
   * may only GET). A first segment of `configure`, `update` or `admin-bundle` is reserved by the
   * shop's own plugin routes and throws.
   *
   * @example `ctx.routes.admin('GET', '/notes', h)` → `GET /admin/plugins/order-notes/notes`
   */
  admin(method: HttpMethod, path: string, handler: RouteHandler): void;
  /**
   * Mounted at `/store/plugins/<manifest id><path>`, behind the publishable-key check.
   *
   * @example `ctx.routes.store('GET', '/balance', h)` → `GET /store/plugins/loyalty-points/balance`
   */
  store(method: HttpMethod, path: string, handler: RouteHandler): void;
}

/**
 * SQL in the plugin's own PostgreSQL schema `plugin_<manifest id, - as _>`: each query runs in
 * its own transaction with the `search_path` set to that schema, so unqualified names resolve
 * there (built-in functions stay reachable). It organises data; it is not a sandbox.
 */
export interface PluginDb {
  /** Runs one statement with `$1…` parameters and returns its rows. */
  query<T extends Record<string, unknown> = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
}

export interface PluginLogger {
  debug(message: string, data?: Record<string, unknown>): void;
  info(message: string, data?: Record<string, unknown>): void;
  warn(message: string, data?: Record<string, unknown>): void;
  error(message: string, data?: Record<string, unknown>): void;
}

/** The host API handed to `register(ctx)`. Everything registered through it is removed on unload. */
export interface PluginContext {
  /** The installed plugin: manifest id and version. */
  plugin: { id: string; version: string };
  /**
   * Subscribes to a core event (`order.placed`: the handler's payload is typed by {@link CoreEvents}),
   * a group (`order.*`) or everything (`*`).
   */
  on<K extends CoreEventName>(eventName: K, handler: (event: PluginEvent<CoreEvents[K]>) => void | Promise<void>): void;
  on(eventName: string, handler: EventHandler): void;
  routes: PluginRoutes;
  db: PluginDb;
  /**
   * Read APIs (need `permissions.apis: ["orders:read"]`). `retrieve` answers the order as
   * `GET /admin/orders/{id}` shows it (dates as ISO strings), or null when there is none.
   */
  orders: { retrieve(id: string): Promise<(Record<string, unknown> & { id: string }) | null> };
  /** The operator's configuration, secrets decrypted, per the manifest's `config` fields. */
  config: Readonly<Record<string, string | number | boolean | undefined>>;
  logger: PluginLogger;
  /**
   * Emits one of the plugin's own events: `ctx.emit('points.earned', { id, … })` is delivered as
   * `loyalty-points.points.earned` (to subscribers and webhooks), so a plugin cannot forge core events.
   */
  emit(eventName: string, payload: Record<string, unknown> & { id: string }): Promise<void>;
  /**
   * Payment providers of this plugin (see {@link PaymentProvider}). Registered providers go live
   * with the plugin and disappear when it is unloaded; an id another plugin already uses throws.
   *
   * @example `ctx.payments.register({ id: 'stripe', initiatePayment, authorizePayment, … })` → `pp_stripe`
   */
  payments: { register(provider: PaymentProvider): void };
  /**
   * Tax providers of this plugin (see {@link TaxProvider}); needs `permissions.providers: ["taxes"]`.
   *
   * @example `ctx.taxes.register({ id: 'avalara', getTaxLines })` → a tax region's `provider_id: 'tp_avalara'`
   */
  taxes: { register(provider: TaxProvider): void };
  /**
   * Fulfilment providers of this plugin (see {@link FulfillmentProvider}); needs `permissions.providers: ["fulfillments"]`.
   *
   * @example `ctx.fulfillments.register({ id: 'parcelo', getFulfillmentOptions, createFulfillment, cancelFulfillment })` → `fp_parcelo`
   */
  fulfillments: { register(provider: FulfillmentProvider): void };
  /**
   * Notification providers of this plugin (see {@link NotificationProvider}).
   *
   * @example `ctx.notifications.register({ id: 'smtp', channels: ['email'], send })`
   */
  notifications: { register(provider: NotificationProvider): void };
}

/** What the server entry default-exports. */
export interface Plugin {
  register(ctx: PluginContext): void | Promise<void>;
  /**
   * Optional: called with the new values when the operator saves the configuration (also
   * readable as `ctx.config` from then on). Without it the host reloads the plugin: `unload()`,
   * then `register(ctx)` again on a fresh module instance, so values captured at register time
   * are refreshed either way.
   *
   * @example
   * ```js
   * let client;
   * export default {
   *   register(ctx) { client = makeClient(ctx.config.api_key); },
   *   onConfigure(config) { client = makeClient(config.api_key); },
   * };
   * ```
   */
  onConfigure?(config: Readonly<Record<string, string | number | boolean | undefined>>): void | Promise<void>;
  /** Optional clean-up (timers, connections) before the host drops the plugin's handlers. */
  unload?(): void | Promise<void>;
}

/**
 * Identity helper that types a plugin object.
 *
 * @example
 * ```ts
 * import { definePlugin } from '@emporium/plugin-sdk';
 * export default definePlugin({ register(ctx) { ctx.on('order.placed', (e) => ctx.logger.info('order', { id: e.payload.id })); } });
 * ```
 */
export function definePlugin<T extends Plugin>(plugin: T): T {
  return plugin;
}

/** Calls the admin panel makes available to an admin extension. */
export interface AdminApi {
  /**
   * A request to the shop's admin API (paths under `/admin/`), made by the panel on the
   * extension's behalf: the extension runs in a sandboxed frame without cookies or token.
   * Only GET unless the manifest's `admin_api.methods` allows more; resolves with the JSON
   * answer, rejects with an error carrying `status`.
   */
  fetch(path: string, init?: { method?: string; body?: unknown }): Promise<unknown>;
  /** Shows a toast in the admin panel. */
  notify(message: string, kind?: 'info' | 'success' | 'error'): void;
}

/**
 * What an admin entry default-exports: a widget rendered into a named slot of the admin
 * panel (e.g. `dashboard`, `order.details`).
 *
 * @example
 * ```js
 * export default { slot: 'dashboard', title: 'Hello', render(el) { el.textContent = 'Hello!'; } };
 * ```
 */
export interface AdminExtension {
  slot: string;
  title?: string;
  /** Draws into `el`; may return a clean-up function called when the widget is removed. */
  render(el: HTMLElement, api: AdminApi): void | (() => void) | Promise<void | (() => void)>;
}
