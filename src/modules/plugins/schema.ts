import { Type } from 'typebox';
import { listEnvelope, pageQuery } from '../../platform/http/pagination.ts';
import { Nullable, NullableTimestamp, Timestamp } from '../../platform/http/schema-types.ts';
import { MARKETPLACE_ID_PATTERN } from '../../plugin-package/manifest.ts';
import { ADMIN_METHODS } from '../../plugin-package/permissions.ts';
import { VERSION_PATTERN } from '../../plugin-package/versions.ts';

const ConfigFieldJson = Type.Object({
  key: Type.String(),
  label: Type.String(),
  type: Type.String({ enum: ['string', 'number', 'boolean'] }),
  secret: Type.Optional(Type.Boolean()),
  required: Type.Optional(Type.Boolean()),
  description: Type.Optional(Type.String()),
});

export const PermissionsJson = Type.Object({
  events: Type.Array(Type.String(), { description: 'event names or patterns ctx.on may subscribe to' }),
  apis: Type.Array(Type.String(), { description: 'read APIs, e.g. orders:read' }),
  routes: Type.Object({ admin: Type.Boolean(), store: Type.Boolean() }),
  providers: Type.Array(Type.String({ enum: ['payments', 'notifications', 'taxes', 'fulfillments'] })),
  hosts: Type.Array(Type.String(), { description: 'outbound hosts it says it calls (shown, not enforced)' }),
  admin_extension: Type.Object(
    {
      bundle: Type.Boolean({ description: 'it has an admin bundle, run in the panel with the operator’s session' }),
      methods: Type.Array(Type.String({ enum: [...ADMIN_METHODS] }), {
        description: 'write methods its AdminApi.fetch may send (GET always)',
      }),
    },
    { description: 'what its admin extension may do (from the manifest’s admin and admin_api)' },
  ),
});

export const PluginJsonSchema = Type.Object({
  id: Type.String(),
  object: Type.Literal('plugin'),
  manifest_id: Type.String({ description: "the manifest's id; names the plugin's schema and its route mount" }),
  marketplace_id: Type.String({ description: '`@<vendor>/<manifest id>`' }),
  vendor: Type.String(),
  name: Nullable(Type.String()),
  type: Nullable(Type.String()),
  description: Nullable(Type.String()),
  version: Type.String({ description: 'the running version (while installing: the one requested)' }),
  target_version: Nullable(Type.String({ description: 'while updating: the version being installed' })),
  status: Type.String({ enum: ['installing', 'installed', 'failed', 'disabled', 'updating'] }),
  error: Nullable(Type.String({ description: 'why the last install, update or load failed' })),
  revocation: Nullable(
    Type.Object(
      {
        severity: Type.String({ enum: ['critical', 'warning'] }),
        reason: Type.String(),
        revoked_at: Type.String(),
        sequence: Type.Integer(),
      },
      { description: 'the marketplace revoked this version: critical stops it, warning keeps it running' },
    ),
  ),
  rollback: Nullable(
    Type.Object(
      { from: Type.String(), to: Type.String(), reason: Type.String(), at: Type.String() },
      { description: 'the last update crash-looped and the shop went back to the version before' },
    ),
  ),
  held_versions: Type.Array(Type.String(), { description: 'versions rolled back from: not offered as updates' }),
  source: Nullable(Type.String({ enum: ['local', 'federation'] })),
  licensed: Type.Boolean({ description: 'installed with a license key (paid item); the key itself is never returned' }),
  manifest: Nullable(Type.Object({ id: Type.String() }, { additionalProperties: true })),
  config_fields: Type.Array(ConfigFieldJson),
  permissions: Nullable(
    Type.Intersect([PermissionsJson], {
      description: 'declared rights; for an old manifest, the ones it uses (events, routes, providers it registered)',
    }),
  ),
  permissions_declared: Nullable(
    Type.Boolean({ description: 'false: an old manifest without `permissions`, running with the legacy rights' }),
  ),
  pending_update: Nullable(
    Type.Object(
      {
        version: Type.String(),
        permissions: Nullable(PermissionsJson),
        new_rights: Type.Array(Type.String(), {
          description: 'what it asks for beyond the granted rights, e.g. route:store, admin:bundle, admin:POST',
        }),
        approve_url: Type.String(),
      },
      { description: 'a verified update waiting for the operator to approve the rights it adds' },
    ),
  ),
  admin_bundle: Nullable(
    Type.Object({ url: Type.String(), sha256: Type.String() }, { description: 'ES module the admin panel imports' }),
  ),
  installed_at: NullableTimestamp,
  created_at: Timestamp,
  updated_at: Timestamp,
});

const Count = Type.Integer({ minimum: 0 });
export const PluginRuntimeSchema = Type.Object(
  {
    running: Type.Boolean({ description: "the plugin's process is up on this instance" }),
    pid: Nullable(Type.Integer()),
    calls: Type.Integer({ minimum: 0, description: 'route, event handler and provider calls into the process' }),
    errors: Type.Integer({ minimum: 0, description: 'calls that threw (a route’s own 4xx excluded) or found it down' }),
    timeouts: Type.Integer({ minimum: 0, description: 'calls past their deadline' }),
    time_ms: Type.Integer({ minimum: 0, description: 'total time spent in calls' }),
    avg_ms: Nullable(Type.Number()),
    memory: Nullable(
      Type.Object(
        { rss: Count, heap_used: Count, heap_total: Count },
        { description: "bytes, from the process's own process.memoryUsage(); null when it does not answer" },
      ),
    ),
    restarts: Count,
    crashes: Count,
    crashes_in_window: Type.Integer({ minimum: 0, description: 'counted against PLUGIN_MAX_CRASHES' }),
    last_crash: Nullable(Type.Object({ at: Timestamp, reason: Type.String() })),
  },
  { description: 'this instance only: every instance runs its own process per plugin' },
);

export const PluginEnvelope = Type.Object({ plugin: PluginJsonSchema });
export const PluginDetailEnvelope = Type.Object({
  plugin: Type.Object({
    ...PluginJsonSchema.properties,
    runtime: Nullable(PluginRuntimeSchema),
  }),
});
export const PluginList = listEnvelope('plugins', PluginJsonSchema);
export const PluginListQuery = Type.Object({ ...pageQuery(50) });

export const InstallBody = Type.Object(
  {
    marketplace_id: Type.String({ pattern: MARKETPLACE_ID_PATTERN, maxLength: 140, description: '`@<vendor>/<id>`' }),
    version: Type.String({ pattern: VERSION_PATTERN, description: 'dotted numeric' }),
    license_key: Nullable(Type.String({ minLength: 1, maxLength: 200, description: 'paid items only' })),
  },
  { additionalProperties: false },
);

export const ApproveBody = Type.Object(
  { version: Type.String({ pattern: VERSION_PATTERN, description: 'the pending version being approved' }) },
  { additionalProperties: false },
);

export const UpdateBody = Type.Object(
  { version: Type.String({ pattern: VERSION_PATTERN }) },
  { additionalProperties: false },
);

const ConfigValueSchema = Nullable(Type.Union([Type.String(), Type.Number(), Type.Boolean()]));
export const ConfigEnvelope = Type.Object({
  config: Type.Record(Type.String(), ConfigValueSchema, {
    description: 'every field of the manifest; secrets masked as ••••+last 4 (viewers: ••••)',
  }),
});
export const ConfigureBody = Type.Object(
  {
    config: Type.Record(Type.String(), Type.Unknown(), {
      description: 'fields to set; null clears one; a masked secret sent back unchanged keeps it',
    }),
  },
  { additionalProperties: false },
);

export const UpdatesResponse = Type.Object({
  updates: Type.Array(
    Type.Object({ id: Type.String(), current: Type.String(), latest: Type.String(), changelog_url: Type.String() }),
  ),
});

export const PluginDeleted = Type.Object({
  id: Type.String(),
  object: Type.Literal('plugin'),
  deleted: Type.Literal(true),
});

/** The plugin's own routes below its mount: `/admin/plugins/{manifestId}/*` and `/store/plugins/{manifestId}/*`. */
export const RuntimeParams = Type.Object({
  manifestId: Type.String({ maxLength: 64 }),
  '*': Type.String({ maxLength: 2000 }),
});
