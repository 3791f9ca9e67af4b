import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import semver from 'semver';
import { Type, type Static } from 'typebox';
import { PackageError } from './errors.ts';
import { AdminApiSchema, PermissionsSchema } from './permissions.ts';
import { VERSION_PATTERN } from './versions.ts';

export const PLUGIN_TYPES = [
  'admin-extension',
  'integration',
  'payment-provider',
  'notification-provider',
  'fulfillment-provider',
] as const;
export type PluginType = (typeof PLUGIN_TYPES)[number];

const SLUG = '^[a-z0-9]+(-[a-z0-9]+)*$';
/** A path inside the package: relative, forward slashes, no `..` segment. */
const SAFE_PATH = '(?!/)(?!.*(^|/)\\.\\.(/|$))[A-Za-z0-9._@/-]+';
const RELATIVE_PATH = `^${SAFE_PATH}$`;
const ENTRY_PATH = `^${SAFE_PATH}\\.m?js$`;

export const ConfigField = Type.Object(
  {
    key: Type.String({ pattern: '^[a-z][a-z0-9_]{0,63}$' }),
    label: Type.String({ minLength: 1, maxLength: 200 }),
    type: Type.Unsafe<'string' | 'number' | 'boolean'>({ type: 'string', enum: ['string', 'number', 'boolean'] }),
    secret: Type.Optional(Type.Boolean()),
    required: Type.Optional(Type.Boolean()),
    description: Type.Optional(Type.String({ maxLength: 1000 })),
  },
  { additionalProperties: false },
);

/** manifest.json of a plugin package. Unknown keys are refused, so a typo is caught. */
export const PluginManifestSchema = Type.Object(
  {
    id: Type.String({ pattern: SLUG, maxLength: 64 }),
    vendor: Type.String({ pattern: SLUG, maxLength: 64 }),
    name: Type.String({ minLength: 1, maxLength: 200 }),
    version: Type.String({ pattern: VERSION_PATTERN }),
    type: Type.Unsafe<PluginType>({ type: 'string', enum: [...PLUGIN_TYPES] }),
    description: Type.Optional(Type.String({ maxLength: 10_000 })),
    server: Type.Optional(Type.String({ pattern: ENTRY_PATH, maxLength: 300 })),
    admin: Type.Optional(Type.String({ pattern: ENTRY_PATH, maxLength: 300 })),
    migrations: Type.Optional(Type.String({ pattern: RELATIVE_PATH, maxLength: 300 })),
    config: Type.Optional(Type.Array(ConfigField, { maxItems: 100 })),
    events: Type.Optional(
      Type.Array(Type.String({ pattern: '^[a-z0-9_*-]+(\\.[a-z0-9_*-]+)*$', maxLength: 100 }), { maxItems: 200 }),
    ),
    engine: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    /** The rights the plugin asks for (permissions.ts); without it, the rights plugins always had. */
    permissions: Type.Optional(PermissionsSchema),
    /** What the admin extension may ask the panel's AdminApi.fetch bridge for besides GET. */
    admin_api: Type.Optional(AdminApiSchema),
  },
  { additionalProperties: false },
);

export type PluginManifest = Static<typeof PluginManifestSchema>;
export type PluginConfigField = Static<typeof ConfigField>;

// Compiled on the first manifest read, not at import: most starts read none.
let compiled: ValidateFunction | undefined;
const manifestCheck = () => (compiled ??= new Ajv({ allErrors: true, strict: false }).compile(PluginManifestSchema));

const HINTS: Record<string, string> = {
  id: 'a lower-case slug such as "hello-widget"',
  vendor: 'a lower-case slug such as "acme"',
  version: 'dotted numeric, e.g. 1.2.0',
  server: 'a relative path to a .js or .mjs file inside the package',
  admin: 'a relative path to a .js or .mjs file inside the package',
  migrations: 'a relative folder path inside the package',
};

function describe(e: ErrorObject): string {
  const field = e.instancePath.split('/').filter(Boolean).join('.');
  if (e.keyword === 'required')
    return `field '${[field, e.params.missingProperty].filter(Boolean).join('.')}' is required`;
  if (e.keyword === 'additionalProperties')
    return `unknown field '${[field, e.params.additionalProperty].filter(Boolean).join('.')}'`;
  if (e.keyword === 'pattern' && HINTS[field]) return `field '${field}' must be ${HINTS[field]}`;
  if (e.keyword === 'enum') return `field '${field}' must be one of ${(e.params.allowedValues as string[]).join(', ')}`;
  return `field '${field || '(root)'}' ${e.message ?? 'is invalid'}`;
}

/** Validates a parsed manifest.json; returns it with defaults applied (engine `*`). */
export function validateManifest(value: unknown): PluginManifest {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new PackageError('manifest.json must be a JSON object');
  const check = manifestCheck();
  if (!check(value)) {
    const messages = [...new Set((check.errors ?? []).map(describe))];
    throw new PackageError(`Invalid manifest.json: ${messages.slice(0, 3).join('; ')}`);
  }
  const manifest = value as PluginManifest;
  if (manifest.engine !== undefined && semver.validRange(manifest.engine) === null) {
    throw new PackageError(
      `Invalid manifest.json: field 'engine' must be a semver range such as ">=0.1 <1", got "${manifest.engine}"`,
    );
  }
  const keys = (manifest.config ?? []).map((f) => f.key);
  const dup = keys.find((k, i) => keys.indexOf(k) !== i);
  if (dup) throw new PackageError(`Invalid manifest.json: config key '${dup}' appears twice`);
  return { ...manifest, engine: manifest.engine ?? '*' };
}

/** What a marketplace id (below) may look like: two lower-case slugs, vendor and plugin id. */
export const MARKETPLACE_ID_PATTERN = '^@[a-z0-9]+(-[a-z0-9]+)*/[a-z0-9]+(-[a-z0-9]+)*$';

/** `@<vendor>/<id>`: the item's name in the marketplace. */
export function marketplaceIdOf(manifest: Pick<PluginManifest, 'vendor' | 'id'>): string {
  return `@${manifest.vendor}/${manifest.id}`;
}
