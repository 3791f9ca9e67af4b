import { completeRights, extraRights, grantedRights, rightsOf, type Rights } from '../../plugin-package/permissions.ts';
import type { PluginRow } from './queries.ts';
import { usedRights, type PluginGrant } from './rights.ts';

function rightsJson(r: Rights) {
  const { declared: _, ...rest } = r;
  return rest;
}

/**
 * The rights a plugin runs with: its declared ones; for an old manifest without `permissions`,
 * what it registered on this instance (when loaded here), else the broad rights it may use (its
 * admin extension's, always from the manifest).
 */
function effectiveRights(row: PluginRow, grant: PluginGrant | undefined) {
  if (!row.manifest) return null;
  const declared = rightsOf(row.manifest);
  return rightsJson(declared.declared || !grant ? declared : usedRights(grant));
}

/** A verified update waiting for its rights to be approved, with what it adds. */
function pendingUpdate(row: PluginRow) {
  if (!row.pending_version) return null;
  const granted = grantedRights(row.granted_permissions, row.manifest);
  // Parked before admin-extension rights existed: none shown here, the pipeline checks them again.
  const pending = row.pending_permissions ? completeRights(row.pending_permissions, granted) : null;
  return {
    version: row.pending_version,
    permissions: pending ? rightsJson(pending) : null,
    new_rights: pending ? extraRights(pending, granted) : [],
    approve_url: `/admin/plugins/${row.id}/update/approve`,
  };
}

/** The admin bundle's stable URL; the sha256 lets the panel pin (and cache) what it imports. */
export function adminBundleUrl(id: string): string {
  return `/admin/plugins/${id}/admin-bundle`;
}

/**
 * A plugin row as the API shows it. Never the license key or config values (those have their
 * own masked endpoint); `manifest` is null until the first download was verified.
 */
export function pluginJson(row: PluginRow, grant?: PluginGrant) {
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
    revocation: row.revocation,
    rollback: row.rollback,
    held_versions: row.held_versions,
    source: row.source,
    licensed: row.license_key !== null,
    manifest: m,
    config_fields: m?.config ?? [],
    permissions: effectiveRights(row, grant),
    /** false: an old manifest without `permissions` (flagged in the admin); null before the first download. */
    permissions_declared: m ? m.permissions !== undefined : null,
    pending_update: pendingUpdate(row),
    admin_bundle: row.admin_sha256 ? { url: adminBundleUrl(row.id), sha256: row.admin_sha256 } : null,
    installed_at: row.installed_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export type PluginJson = ReturnType<typeof pluginJson>;
