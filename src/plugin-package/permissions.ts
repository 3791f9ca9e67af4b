import { Ajv } from 'ajv';
import { Type, type Static } from 'typebox';

/** Read APIs a plugin may ask for; each one adds a call to its ctx (`orders:read` → `ctx.orders.retrieve`). */
export const READ_APIS = ['orders:read'] as const;
export type ReadApi = (typeof READ_APIS)[number];
export const PROVIDER_KINDS = ['payments', 'notifications', 'taxes', 'fulfillments'] as const;
export type ProviderRight = (typeof PROVIDER_KINDS)[number];
/** Write methods an admin extension may send through the panel's AdminApi.fetch bridge (GET always). */
export const ADMIN_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type AdminMethod = (typeof ADMIN_METHODS)[number];

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

/** `manifest.json` → `admin_api`: what the admin extension may send besides GET. */
export const AdminApiSchema = Type.Object(
  {
    methods: Type.Array(Type.Unsafe<AdminMethod>({ type: 'string', enum: [...ADMIN_METHODS] }), {
      maxItems: 4,
      uniqueItems: true,
    }),
  },
  { additionalProperties: false },
);

/** The manifest fields rights are read from. */
export interface RightsSource {
  permissions?: PluginPermissions;
  /** The admin bundle's entry: the extension runs in the operator's panel, with their session. */
  admin?: string;
  admin_api?: { methods: AdminMethod[] };
}

/** What the plugin's admin extension may do in the operator's panel. */
export interface AdminExtensionRights {
  /** The package has an admin bundle (`admin` entry). */
  bundle: boolean;
  /** Write methods its AdminApi.fetch may send (only with a bundle: without one they give nothing). */
  methods: AdminMethod[];
}

/** The rights a plugin runs with, normalised (every field present). */
export interface Rights {
  /** false: an old manifest without `permissions`; the rights are the ones it always had. */
  declared: boolean;
  events: string[];
  apis: ReadApi[];
  routes: { admin: boolean; store: boolean };
  providers: ProviderRight[];
  /** Outbound hosts the plugin says it calls: shown to the operator, not enforced (docs/plugin-sandbox.md). */
  hosts: string[];
  admin_extension: AdminExtensionRights;
}

/**
 * Rights as stored on the row (`granted_permissions`, `pending_permissions`): ones stored before
 * admin-extension rights existed lack `admin_extension` (see {@link grantedRights}).
 */
export type StoredRights = Omit<Rights, 'admin_extension'> & { admin_extension?: AdminExtensionRights };

/**
 * What a manifest without `permissions` may do: everything a plugin could do before rights
 * existed (any event, both route surfaces, both provider kinds, any host), and none of the read
 * APIs, which are new. The admin shows such a plugin flagged (`permissions_declared: false`).
 * Its admin extension is not legacy: the `admin` entry and `admin_api` were always spelled out in
 * the manifest, so {@link rightsOf} reads them from it for old and new manifests alike (an old
 * manifest with a bundle has that bundle and those methods, no more; one without has none).
 */
export const LEGACY_RIGHTS: Rights = Object.freeze({
  declared: false,
  events: ['*'],
  apis: [],
  routes: { admin: true, store: true },
  providers: ['payments', 'notifications'],
  hosts: ['*'],
  admin_extension: { bundle: false, methods: [] },
}) as Rights;

function adminExtensionOf(manifest: RightsSource | null | undefined): AdminExtensionRights {
  const bundle = typeof manifest?.admin === 'string';
  const asked = manifest?.admin_api?.methods ?? [];
  return { bundle, methods: bundle ? ADMIN_METHODS.filter((m) => asked.includes(m)) : [] };
}

export function rightsOf(manifest: RightsSource | null | undefined): Rights {
  const p = manifest?.permissions;
  const admin_extension = adminExtensionOf(manifest);
  if (!p) return { ...LEGACY_RIGHTS, routes: { ...LEGACY_RIGHTS.routes }, admin_extension };
  return {
    declared: true,
    events: [...new Set(p.events ?? [])],
    apis: [...new Set(p.apis ?? [])],
    routes: { admin: p.routes?.admin === true, store: p.routes?.store === true },
    providers: [...new Set(p.providers ?? [])],
    hosts: [...new Set(p.hosts ?? [])],
    admin_extension,
  };
}

/**
 * The rights granted to an installed plugin: the stored grant, or its running manifest's when none
 * is stored (installed before grants were). A grant stored before admin-extension rights existed
 * gets those of the running manifest, the version the operator accepted, never more.
 */
export function grantedRights(stored: StoredRights | null | undefined, running: RightsSource | null): Rights {
  const own = rightsOf(running);
  return stored ? completeRights(stored, own) : own;
}

/** A stored grant with its missing `admin_extension` taken from `fallback`. */
export function completeRights(stored: StoredRights, fallback: Rights): Rights {
  return { ...stored, admin_extension: stored.admin_extension ?? fallback.admin_extension };
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
 * `api:orders:read`, `route:store`, `provider:payments`, `host:api.example.com`, `admin:bundle`
 * for an admin extension, `admin:POST` for a write method it may send). Empty: `next` needs no
 * new approval.
 */
export function extraRights(next: Rights, granted: Rights): string[] {
  const extra: string[] = [];
  for (const e of next.events) if (!granted.events.some((g) => patternCovers(g, e))) extra.push(`event:${e}`);
  for (const a of next.apis) if (!granted.apis.includes(a)) extra.push(`api:${a}`);
  for (const s of ['admin', 'store'] as const) if (next.routes[s] && !granted.routes[s]) extra.push(`route:${s}`);
  for (const p of next.providers) if (!granted.providers.includes(p)) extra.push(`provider:${p}`);
  for (const h of next.hosts) if (!granted.hosts.some((g) => hostCovers(g, h))) extra.push(`host:${h}`);
  const [asks, has] = [next.admin_extension, granted.admin_extension];
  if (asks.bundle && !has.bundle) extra.push('admin:bundle');
  for (const m of asks.methods) if (!has.methods.includes(m)) extra.push(`admin:${m}`);
  return extra;
}

/** The fields of an unchecked manifest that rights are read from. */
const RightsSourceSchema = Type.Object(
  {
    permissions: Type.Optional(PermissionsSchema),
    admin: Type.Optional(Type.String({ minLength: 1 })),
    admin_api: Type.Optional(AdminApiSchema),
  },
  { additionalProperties: true },
);

// Compiled on first use: compiling an Ajv instance's meta-schema at import cost start-up ~50 ms.
let checkRightsSource: ((value: unknown) => boolean) | undefined;

/**
 * What a package's manifest (from the marketplace feed or the plugins folder, unchecked) asks
 * for, as the install preview shows it (its admin extension included): `declared: false` for an
 * old manifest, null when the manifest, its `permissions`, `admin` or `admin_api` is not valid.
 */
export function previewRights(manifest: unknown): { declared: boolean; permissions: Omit<Rights, 'declared'> } | null {
  if (typeof manifest !== 'object' || manifest === null) return null;
  checkRightsSource ??= new Ajv({ strict: false }).compile(RightsSourceSchema);
  if (!checkRightsSource(manifest)) return null;
  const { declared, ...permissions } = rightsOf(manifest as RightsSource);
  return { declared, permissions };
}
