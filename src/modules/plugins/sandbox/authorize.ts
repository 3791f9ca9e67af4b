/**
 * Everything a plugin's process can ask the shop for, one kind per ctx call. The shop checks each
 * request with {@link authorize} before performing it (serve-ctx.ts is the only caller).
 */
export type Capability =
  | { kind: 'events.subscribe'; pattern: string }
  | { kind: 'events.emit'; name: string }
  | { kind: 'routes.add'; surface: 'admin' | 'store'; method: string; path: string }
  | { kind: 'db.query' }
  | { kind: 'api.read'; api: string }
  | { kind: 'providers.register'; provider: 'payment' | 'notification'; id: string }
  | { kind: 'log' };

export interface PluginIdentity {
  manifestId: string;
  rowId: string;
  /** The manifest as installed: where declared rights (`permissions`) will be read from. */
  manifest: Record<string, unknown> | null;
}

/** A ctx call the plugin has no right to make; its message reaches the plugin as the call's error. */
export class NotAuthorizedError extends Error {}

/**
 * The sandbox's checkpoint for a message from a plugin's process, before the host context runs
 * it. The rights a manifest declares (`permissions`: events, read APIs, routes, providers) are
 * enforced one step further, by the host context itself through `authorize(grant, …)` in
 * ../rights.ts, the same check an in-process plugin (createTestHost, the SDK harness) meets; so is
 * what is refused to every plugin (core event names in emit, reserved paths, other plugins'
 * provider ids). Nothing is refused here yet: this is where a check that only concerns the
 * process channel (message rates, sizes) belongs.
 */
export function authorize(plugin: PluginIdentity, capability: Capability): void {
  void plugin;
  void capability;
}
