/** The plugin types a manifest may declare. */
export type PluginType =
  | 'admin-extension'
  | 'integration'
  | 'payment-provider'
  | 'notification-provider'
  | 'fulfillment-provider';

/** A configuration field the operator fills in on the plugin's configure page. */
export interface ConfigField {
  /** Key under which the value reaches `ctx.config`, e.g. `api_key`. */
  key: string;
  label: string;
  type: 'string' | 'number' | 'boolean';
  /** Stored encrypted, shown masked (`••••` + last 4 characters), never sent to viewers. */
  secret?: boolean;
  required?: boolean;
  description?: string;
}

/**
 * `manifest.json` at the root of the package.
 *
 * @example
 * ```json
 * { "id": "order-notes", "vendor": "acme", "name": "Order notes", "version": "1.0.0",
 *   "type": "integration", "server": "server/index.js", "migrations": "migrations",
 *   "events": ["order.placed"], "engine": ">=0.1",
 *   "config": [{ "key": "api_key", "label": "API key", "type": "string", "secret": true, "required": true }] }
 * ```
 */
export interface PluginManifest {
  /** Lower-case slug; the marketplace id is `@<vendor>/<id>`. */
  id: string;
  /** Lower-case slug of the publisher. */
  vendor: string;
  name: string;
  /** Dotted numeric: one to four integers, e.g. `1.4.0`; compared numerically (1.10.0 > 1.9.9). */
  version: string;
  type: PluginType;
  description?: string;
  /** ESM file (`.js` or `.mjs`) default-exporting a {@link Plugin}. */
  server?: string;
  /** ESM file for the admin panel default-exporting an {@link AdminExtension}. */
  admin?: string;
  /** Folder of `.sql` files, applied once each in file-name order, inside the plugin's own schema. */
  migrations?: string;
  config?: ConfigField[];
  /** Event names the plugin subscribes to (informational: shown before install). */
  events?: string[];
  /** Semver range of Emporium versions the plugin supports; default `*`. */
  engine?: string;
  /**
   * Methods besides GET the admin extension may send through {@link AdminApi.fetch}; without it
   * the panel answers only read-only GETs. Example: `{ "methods": ["POST"] }`. Shown to the
   * operator before install; an update that adds a method (or adds an `admin` bundle) waits for
   * the operator's approval, like one asking for more `permissions`.
   */
  admin_api?: { methods: ('POST' | 'PUT' | 'PATCH' | 'DELETE')[] };
  /**
   * What the plugin may do in the shop; the host refuses the rest (`register` fails with the
   * missing right). Shown to the operator before install, and an update that asks for more waits
   * for the operator's approval. Without it the plugin keeps the rights plugins always had
   * (any event, routes, providers; no read APIs) and the admin flags it as undeclared.
   *
   * @example
   * ```json
   * "permissions": { "events": ["order.placed"], "apis": ["orders:read"], "routes": { "admin": true },
   *                  "providers": ["payments"], "hosts": ["api.stripe.com"] }
   * ```
   */
  permissions?: PluginPermissions;
}

/** See {@link PluginManifest.permissions}. */
export interface PluginPermissions {
  /** Events `ctx.on` may subscribe to: names (`order.placed`), groups (`order.*`) or `*`. */
  events?: string[];
  /** Read APIs: `orders:read` gives `ctx.orders.retrieve(id)`. */
  apis?: 'orders:read'[];
  /** Whether `ctx.routes.admin` / `ctx.routes.store` may add routes. */
  routes?: { admin?: boolean; store?: boolean };
  /** Provider kinds `ctx.payments.register` / `ctx.notifications.register` / `ctx.taxes.register` may add. */
  providers?: ('payments' | 'notifications' | 'taxes' | 'fulfillments')[];
  /**
   * Hosts the server code calls (`api.stripe.com`, `*.example.com`). Shown to the operator and
   * compared on updates, but NOT enforced: Node 20 has no per-process network permission.
   */
  hosts?: string[];
}
