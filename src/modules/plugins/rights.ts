import { patternCovers, type ProviderRight, type ReadApi, type Rights } from '../../plugin-package/permissions.ts';

/**
 * THE SEAM for plugin rights. Every host call that needs a right goes through `authorize`, in
 * this process or (with plugins in child processes) from the RPC layer before it runs the call.
 */

/** Something a plugin can ask the host to do that needs a right. */
export type Capability =
  | { type: 'event'; pattern: string }
  | { type: 'api'; api: ReadApi }
  | { type: 'route'; surface: 'admin' | 'store' }
  | { type: 'provider'; kind: ProviderRight };

/** A plugin as far as rights go: its id, what it may do, and what it did use (shown for old manifests). */
export interface PluginGrant {
  manifestId: string;
  rights: Rights;
  /** Capabilities used so far (`event:order.placed`, `route:admin`…): the rights an old manifest needs. */
  used: Set<string>;
}

/** A refused capability: thrown to the plugin (its `register` fails, or its call rejects), status 403. */
export class PluginPermissionError extends Error {
  readonly status = 403;
  readonly code = 'plugin_permission_denied';
}

export function capabilityKey(c: Capability): string {
  switch (c.type) {
    case 'event':
      return `event:${c.pattern}`;
    case 'api':
      return `api:${c.api}`;
    case 'route':
      return `route:${c.surface}`;
    case 'provider':
      return `provider:${c.kind}`;
  }
}

function allowed(rights: Rights, c: Capability): boolean {
  switch (c.type) {
    case 'event':
      return rights.events.some((g) => patternCovers(g, c.pattern));
    case 'api':
      return rights.apis.includes(c.api);
    case 'route':
      return rights.routes[c.surface];
    case 'provider':
      return rights.providers.includes(c.kind);
  }
}

const HOW: Record<Capability['type'], string> = {
  event: 'permissions.events',
  api: 'permissions.apis',
  route: 'permissions.routes',
  provider: 'permissions.providers',
};

/** Throws PluginPermissionError unless the plugin's rights cover the capability; records its use. */
export function authorize(plugin: PluginGrant, capability: Capability): void {
  const key = capabilityKey(capability);
  if (!allowed(plugin.rights, capability))
    throw new PluginPermissionError(
      `Plugin ${plugin.manifestId} may not use ${key}: add it to ${HOW[capability.type]} in manifest.json`,
    );
  plugin.used.add(key);
}

export function grantOf(manifestId: string, rights: Rights): PluginGrant {
  return { manifestId, rights, used: new Set() };
}

/**
 * The rights an old manifest (no `permissions`) actually needs, from what it registered: shown to
 * the operator in its place, so they see what such a plugin really does.
 */
export function usedRights(grant: PluginGrant): Rights {
  const used = [...grant.used];
  const of = (prefix: string) => used.filter((k) => k.startsWith(prefix)).map((k) => k.slice(prefix.length));
  return {
    declared: false,
    events: of('event:'),
    apis: of('api:') as ReadApi[],
    routes: { admin: grant.used.has('route:admin'), store: grant.used.has('route:store') },
    providers: of('provider:') as ProviderRight[],
    hosts: grant.rights.hosts,
    admin_extension: grant.rights.admin_extension,
  };
}
