/**
 * Everything a plugin's process can ask the shop for, one kind per ctx call. The shop checks each
 * request with {@link authorize} before performing it (serve-ctx.ts is the only caller).
 */
export type Capability =
  | { kind: 'events.subscribe'; pattern: string }
  | { kind: 'events.emit'; name: string }
  | { kind: 'routes.add'; surface: 'admin' | 'store'; method: string; path: string }
  | { kind: 'db.query' }
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
 * The single checkpoint of the plugin sandbox: throws NotAuthorizedError when `plugin` may not use
 * `capability`. Today every capability is allowed (the rights of a manifest's `permissions` are
 * enforced by the rights branch, which plugs its check in here); what is already refused for
 * every plugin (core event names in emit, reserved paths, other plugins' provider ids) is refused
 * by the host context itself.
 */
export function authorize(plugin: PluginIdentity, capability: Capability): void {
  void plugin;
  void capability;
}
