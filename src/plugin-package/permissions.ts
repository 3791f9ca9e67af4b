import { Ajv } from 'ajv';
import { Type, type Static } from 'typebox';

/** Read APIs a plugin may ask for; each one adds a call to its ctx (`orders:read` → `ctx.orders.retrieve`). */
export const READ_APIS = ['orders:read'] as const;
export type ReadApi = (typeof READ_APIS)[number];
export const PROVIDER_KINDS = ['payments', 'notifications'] as const;
export type ProviderRight = (typeof PROVIDER_KINDS)[number];

const EVENT_PATTERN = '^(\\*|[a-z0-9_-]+(\\.[a-z0-9_-]+)*(\\.\\*)?)$';
/** A host name, `*.example.com`, or `*` (any: a host the operator configures); no ports or schemes. */
const HOST_PATTERN = '^\\*$|^(\\*\\.)?[a-z0-9]([a-z0-9-]{0,62})(\\.[a-z0-9]([a-z0-9-]{0,62}))*$';

/** `manifest.json` → `permissions`: what the plugin may do in the shop. */
export const PermissionsSchema = Type.Object(
  {
    events: Type.Optional(Type.Array(Type.String({ pattern: EVENT_PATTERN, maxLength: 100 }), { maxItems: 100 })),
    apis: Type.Optional(
      Type.Array(Type.Unsafe<ReadApi>({ type: 'string', enum: [...READ_APIS] }), { maxItems: 20, uniqueItems: true }),
    ),
    routes: Type.Optional(
      Type.Object(
        { admin: Type.Optional(Type.Boolean()), store: Type.Optional(Type.Boolean()) },
        { additionalProperties: false },
      ),
    ),
    providers: Type.Optional(
      Type.Array(Type.Unsafe<ProviderRight>({ type: 'string', enum: [...PROVIDER_KINDS] }), {
        maxItems: 2,
        uniqueItems: true,
      }),
    ),
    hosts: Type.Optional(Type.Array(Type.String({ pattern: HOST_PATTERN, maxLength: 253 }), { maxItems: 50 })),
  },
  { additionalProperties: false },
);
export type PluginPermissions = Static<typeof PermissionsSchema>;

/** The rights a plugin runs with, normalised (every field present). */
export interface Rights {
  /** false: an old manifest without `permissions`; the rights are the ones it always had. */
  declared: boolean;
  events: string[];
  apis: ReadApi[];
  routes: { admin: boolean; store: boolean };
  providers: ProviderRight[];
  /** Outbound hosts the plugin says it calls: shown to the operator, not enforced (see README). */
  hosts: string[];
}

/**
 * What a manifest without `permissions` may do: everything a plugin could do before rights
 * existed (any event, both route surfaces, both provider kinds, any host), and none of the read
 * APIs, which are new. The admin shows such a plugin flagged (`permissions_declared: false`).
 */
export const LEGACY_RIGHTS: Rights = Object.freeze({
  declared: false,
  events: ['*'],
  apis: [],
  routes: { admin: true, store: true },
  providers: ['payments', 'notifications'],
  hosts: ['*'],
}) as Rights;

export function rightsOf(manifest: { permissions?: PluginPermissions } | null | undefined): Rights {
  const p = manifest?.permissions;
  if (!p) return { ...LEGACY_RIGHTS, routes: { ...LEGACY_RIGHTS.routes } };
  return {
    declared: true,
    events: [...new Set(p.events ?? [])],
    apis: [...new Set(p.apis ?? [])],
    routes: { admin: p.routes?.admin === true, store: p.routes?.store === true },
    providers: [...new Set(p.providers ?? [])],
    hosts: [...new Set(p.hosts ?? [])],
  };
}

/** Does a declared event pattern cover a subscription pattern? `order.*` covers `order.placed` and `order.item.*`. */
export function patternCovers(granted: string, asked: string): boolean {
  if (granted === '*' || granted === asked) return true;
  if (!granted.endsWith('.*')) return false;
  const prefix = granted.slice(0, -1); // "order."
  return asked.startsWith(prefix) && asked.length > prefix.length;
}

function hostCovers(granted: string, asked: string): boolean {
  if (granted === '*' || granted === asked) return true;
  return granted.startsWith('*.') && asked.endsWith(granted.slice(1));
}

/**
 * The rights `next` asks for beyond `granted`, as readable entries (`event:order.*`,
 * `api:orders:read`, `route:store`, `provider:payments`, `host:api.example.com`). Empty: `next`
 * needs no new approval.
 */
export function extraRights(next: Rights, granted: Rights): string[] {
  const extra: string[] = [];
  for (const e of next.events) if (!granted.events.some((g) => patternCovers(g, e))) extra.push(`event:${e}`);
  for (const a of next.apis) if (!granted.apis.includes(a)) extra.push(`api:${a}`);
  for (const s of ['admin', 'store'] as const) if (next.routes[s] && !granted.routes[s]) extra.push(`route:${s}`);
  for (const p of next.providers) if (!granted.providers.includes(p)) extra.push(`provider:${p}`);
  for (const h of next.hosts) if (!granted.hosts.some((g) => hostCovers(g, h))) extra.push(`host:${h}`);
  return extra;
}

// Compiled on first use: compiling an Ajv instance's meta-schema at import cost start-up ~50 ms (issue 11).
let checkPermissions: ((value: unknown) => boolean) | undefined;

/**
 * What a package's manifest (from the marketplace feed or the plugins folder, unchecked) asks
 * for, as the install preview shows it: `declared: false` for an old manifest, null when the
 * manifest or its `permissions` is not valid.
 */
export function previewRights(manifest: unknown): { declared: boolean; permissions: Omit<Rights, 'declared'> } | null {
  if (typeof manifest !== 'object' || manifest === null) return null;
  const asked = (manifest as { permissions?: unknown }).permissions;
  checkPermissions ??= new Ajv({ strict: false }).compile(PermissionsSchema);
  if (asked !== undefined && !checkPermissions(asked)) return null;
  const { declared, ...permissions } = rightsOf({ permissions: asked as PluginPermissions | undefined });
  return { declared, permissions };
}
