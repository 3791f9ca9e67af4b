import type { PluginRow } from './queries.ts';

/** The admin bundle's stable URL; the sha256 lets the panel pin (and cache) what it imports. */
export function adminBundleUrl(id: string): string {
  return `/admin/plugins/${id}/admin-bundle`;
}

/**
 * A plugin row as the API shows it. Never the license key or config values (those have their
 * own masked endpoint); `manifest` is null until the first download was verified.
 */
export function pluginJson(row: PluginRow) {
  const m = row.manifest;
  return {
    id: row.id,
    object: 'plugin' as const,
    manifest_id: row.manifest_id,
    marketplace_id: row.marketplace_id,
    vendor: row.vendor,
    name: m?.name ?? null,
    type: m?.type ?? null,
    description: m?.description ?? null,
    version: row.version,
    target_version: row.target_version,
    status: row.status,
    error: row.error,
    source: row.source,
    licensed: row.license_key !== null,
    manifest: m,
    config_fields: m?.config ?? [],
    admin_bundle: row.admin_sha256 ? { url: adminBundleUrl(row.id), sha256: row.admin_sha256 } : null,
    installed_at: row.installed_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export type PluginJson = ReturnType<typeof pluginJson>;
