import { EVENT_NAMES } from '../../../platform/events/names.ts';
import { authorize as checkRight, type PluginGrant } from '../rights.ts';

/**
 * Everything a plugin's process can ask the shop for, one kind per ctx call. The shop checks each
 * request with {@link authorize} before performing it (serve-ctx.ts is the only caller).
 */
const RIGHT_OF = {
  payment: 'payments',
  notification: 'notifications',
  tax: 'taxes',
  fulfillment: 'fulfillments',
} as const;

export type Capability =
  | { kind: 'events.subscribe'; pattern: string }
  | { kind: 'events.emit'; name: string }
  | { kind: 'routes.add'; surface: 'admin' | 'store'; method: string; path: string }
  | { kind: 'db.query' }
  | { kind: 'api.read'; api: 'orders:read' }
  | { kind: 'providers.register'; provider: 'payment' | 'notification' | 'tax' | 'fulfillment'; id: string }
  | { kind: 'log' };

export interface PluginIdentity {
  manifestId: string;
  rowId: string;
  /** The manifest as installed. */
  manifest: Record<string, unknown> | null;
  /** What its manifest's `permissions` grant, and what it used so far (rights.ts). */
  grant: PluginGrant;
}

/** Path segments the shop's own plugin routes use under /admin/plugins/{id}/…: a plugin cannot take them. */
export const RESERVED_ADMIN_SEGMENTS = ['configure', 'update', 'admin-bundle'];
const EVENT_NAME = /^[a-z0-9_-]+(\.[a-z0-9_-]+)*$/;
const PATTERN = /^(\*|[a-z0-9_-]+(\.[a-z0-9_-]+)*(\.\*)?)$/;

/**
 * THE checkpoint for a plugin's ctx calls: every message from its process passes here before the
 * host context performs it, and nothing past this point checks rights again. It refuses what the
 * manifest's `permissions` do not grant (PluginPermissionError, status 403, recorded in
 * `grant.used` otherwise), and what no plugin may do: a malformed event name or pattern, a core
 * event name in emit, a path the shop reserves. Pure: it decides, it performs nothing.
 * The SQL a plugin sends is checked by the host context with PostgreSQL's parser (sql-guard.ts),
 * an asynchronous check of content rather than of a right.
 */
export function authorize(plugin: PluginIdentity, capability: Capability): void {
  const { grant } = plugin;
  switch (capability.kind) {
    case 'events.subscribe': {
      const { pattern } = capability;
      if (!PATTERN.test(pattern))
        throw new Error(`ctx.on: "${pattern}" is not an event name or pattern (order.placed, order.*, *)`);
      checkRight(grant, { type: 'event', pattern });
      return;
    }
    case 'events.emit': {
      const { name } = capability;
      if (!EVENT_NAME.test(name))
        throw new Error(`ctx.emit: "${name}" is not an event name (lower-case words joined by dots)`);
      if ((EVENT_NAMES as readonly string[]).includes(name))
        throw new Error(`ctx.emit: "${name}" is a core event; a plugin emits only its own events`);
      return;
    }
    case 'routes.add': {
      const first = capability.path.split('/').filter(Boolean)[0];
      if (capability.surface === 'admin' && first && RESERVED_ADMIN_SEGMENTS.includes(first))
        throw new Error(
          `ctx.routes.admin: "/${first}" is reserved by the shop (reserved: ${RESERVED_ADMIN_SEGMENTS.join(', ')})`,
        );
      checkRight(grant, { type: 'route', surface: capability.surface });
      return;
    }
    case 'api.read':
      checkRight(grant, { type: 'api', api: capability.api });
      return;
    case 'providers.register':
      checkRight(grant, { type: 'provider', kind: RIGHT_OF[capability.provider] });
      return;
    case 'db.query': // its own schema, as its own role: the database holds the line (plugin-role.ts)
    case 'log':
      return;
  }
}
