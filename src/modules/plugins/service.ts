import { grants } from '../../platform/http/permissions.ts';
import type { Ctx } from '../../platform/context.ts';
import { inTx } from '../../platform/context.ts';
import { encryptSecret } from '../../platform/crypto.ts';
import { isUniqueViolation } from '../../platform/db/pg-errors.ts';
import { emit } from '../../platform/events/emit.ts';
import { errors } from '../../platform/http/errors.ts';
import type { Page } from '../../platform/http/pagination.ts';
import { newId } from '../../platform/ids.ts';
import { MARKETPLACE_ID_PATTERN } from '../../plugin-package/manifest.ts';
import { readPackage, safeEntryPath } from '../../plugin-package/read-package.ts';
import { compareVersions, isVersion } from '../../plugin-package/versions.ts';
import { maskedConfig, mergeConfig, type ConfigValue } from './config-values.ts';
import type { PluginLifecycle } from './lifecycle.ts';
import * as q from './queries.ts';
import { runtimeJson } from './sandbox/runtime-view.ts';
import { pluginJson, type PluginJson } from './view.ts';

/** Plugin services need the instance's plugin lifecycle (to start pipelines and reconcile running code): `{ ...req.ctx, plugins }`. */
export interface PluginsCtx extends Ctx {
  plugins: PluginLifecycle;
}

export interface InstallInput {
  marketplace_id: string;
  version: string;
  /** Paid items: the license the marketplace issued; stored encrypted, sent only to the marketplace. */
  license_key: string | null;
}

const MARKETPLACE_ID = new RegExp(MARKETPLACE_ID_PATTERN);

const notFound = (id: string) => errors.notFound('plugin_not_found', { id });

async function findOr404(ctx: Ctx, id: string): Promise<q.PluginRow> {
  const row = await q.findPlugin(ctx.db, id);
  if (!row) throw notFound(id);
  return row;
}

/**
 * Accepts an install (202): a new row in `installing`, or a `failed` row of the same item retried
 * in place; the pipeline runs in the background. The paid-plugin flow (license-issued callback)
 * calls this too, with the license key.
 */
export async function installPlugin(ctx: PluginsCtx, input: InstallInput): Promise<PluginJson> {
  const mid = input.marketplace_id;
  if (!MARKETPLACE_ID.test(mid)) throw errors.invalid('plugin_marketplace_id_invalid', { value: mid });
  if (!isVersion(input.version)) throw errors.invalid('plugin_version_invalid', { value: input.version });
  const [vendor, manifestId] = mid.slice(1).split('/');
  const license = input.license_key ? encryptSecret(ctx.plugins.deps.config.encryptionKey, input.license_key) : null;
  let row: q.PluginRow;
  try {
    row = await inTx(ctx, async (tctx) => {
      const now = tctx.clock.now();
      const clash = await q.findClashingPlugin(tctx.tx, mid, manifestId);
      let r: q.PluginRow | undefined;
      if (!clash) {
        r = await q.insertPlugin(tctx.tx, {
          id: newId('plg'),
          manifest_id: manifestId,
          marketplace_id: mid,
          vendor,
          version: input.version,
          status: 'installing',
          license_key: license,
          created_at: now,
          updated_at: now,
        });
      } else if (clash.marketplace_id === mid && clash.status === 'failed') {
        r = await q.restartFailedPlugin(tctx.tx, clash.id, {
          version: input.version,
          target_version: null,
          license_key: license ?? clash.license_key,
          updated_at: now,
        });
      }
      if (!r && clash?.marketplace_id === mid)
        throw errors.conflict('plugin_already_installed', { id: mid, status: clash.status });
      if (!r) throw errors.conflict('plugin_manifest_id_taken', { id: clash!.marketplace_id, manifest_id: manifestId });
      await q.notifyPluginChanged(tctx.tx, r.id);
      return r;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw errors.conflict('plugin_install_in_progress', { id: mid });
    throw err;
  }
  ctx.plugins.startPipeline(row.id);
  return pluginJson(row);
}

/** The row as the API shows it, with the rights the plugin used here when it runs on this instance. */
function shown(ctx: PluginsCtx, row: q.PluginRow): PluginJson {
  return pluginJson(row, ctx.plugins.host.isLoaded(row.manifest_id, row.id)?.registration.grant);
}

export async function listPlugins(ctx: PluginsCtx, page: Page): Promise<{ plugins: PluginJson[]; count: number }> {
  const rows = page.limit === 0 ? [] : await q.listPluginRows(ctx.db, page);
  return { plugins: rows.map((r) => shown(ctx, r)), count: await q.countPlugins(ctx.db) };
}

/** One plugin with its runtime figures on this instance (sandbox/runtime-view.ts). */
export async function getPluginDetail(ctx: PluginsCtx, id: string) {
  const row = await findOr404(ctx, id);
  return { ...shown(ctx, row), runtime: await runtimeJson(ctx.plugins.host, row) };
}

/**
 * The operator accepts the rights a waiting update asks for (`pending_update`): they are granted
 * and that update starts; the running version goes on until the new one is loaded.
 */
export async function approvePluginUpdate(ctx: PluginsCtx, id: string, version: string): Promise<PluginJson> {
  const current = await findOr404(ctx, id);
  if (!current.pending_version) throw errors.conflict('plugin_no_pending_update', { id: current.marketplace_id });
  if (compareVersions(version, current.pending_version) !== 0)
    throw errors.conflict('plugin_pending_version_mismatch', {
      id: current.marketplace_id,
      pending: current.pending_version,
      version,
    });
  const row = await inTx(ctx, async (tctx) => {
    const r = await q.approvePendingUpdate(tctx.tx, id, current.pending_version!, tctx.clock.now());
    if (!r) throw errors.conflict('plugin_changed_meanwhile', { id: current.marketplace_id });
    await q.notifyPluginChanged(tctx.tx, id);
    return r;
  });
  ctx.plugins.startPipeline(id);
  return shown(ctx, row);
}

/** Unloads everywhere and removes the row; the plugin's schema and tables stay (no rollback). */
export async function uninstallPlugin(
  ctx: PluginsCtx,
  id: string,
): Promise<{ id: string; object: 'plugin'; deleted: true }> {
  await inTx(ctx, async (tctx) => {
    const row = await q.deletePluginRow(tctx.tx, id);
    if (!row) throw notFound(id);
    await emit(tctx, 'plugin.uninstalled', pluginJson(row));
    await q.notifyPluginChanged(tctx.tx, id);
  });
  await ctx.plugins.reconcile(id);
  // Its schema, data and role stay (plugin-role.ts says why the role does).
  return { id, object: 'plugin', deleted: true };
}

function configFields(row: q.PluginRow) {
  if (!row.manifest) throw errors.conflict('plugin_not_installed_yet', { id: row.marketplace_id, status: row.status });
  return row.manifest.config ?? [];
}

export async function getPluginConfig(ctx: PluginsCtx, id: string): Promise<Record<string, ConfigValue | null>> {
  const row = await findOr404(ctx, id);
  return maskedConfig(
    configFields(row),
    row.config,
    ctx.plugins.deps.config.encryptionKey,
    !ctx.actor || !grants(ctx.actor.permissions, 'plugins:write'),
  );
}

/** Validates and stores a configuration, then hands it to the running plugin on every instance. */
export async function configurePlugin(
  ctx: PluginsCtx,
  id: string,
  submitted: Record<string, unknown>,
): Promise<Record<string, ConfigValue | null>> {
  const key = ctx.plugins.deps.config.encryptionKey;
  const row = await inTx(ctx, async (tctx) => {
    const current = await q.findPlugin(tctx.tx, id);
    if (!current) throw notFound(id);
    const config = mergeConfig(configFields(current), current.config, submitted, key);
    const updated = await q.updatePluginRow(tctx.tx, id, { config, updated_at: tctx.clock.now() });
    await q.notifyPluginChanged(tctx.tx, id);
    return updated!;
  });
  await ctx.plugins.reconcile(id);
  return maskedConfig(configFields(row), row.config, key, false);
}

/** Starts an update to a newer version; the old version runs until the new one is verified and loaded. */
export async function updatePlugin(ctx: PluginsCtx, id: string, version: string): Promise<PluginJson> {
  if (!isVersion(version)) throw errors.invalid('plugin_version_invalid', { value: version });
  const current = await findOr404(ctx, id);
  if (current.status !== 'installed')
    throw errors.conflict('plugin_not_updatable', { id: current.marketplace_id, status: current.status });
  if (compareVersions(version, current.version) <= 0)
    throw errors.invalid('plugin_version_not_newer', { version, installed: current.version });
  const row = await inTx(ctx, async (tctx) => {
    const r = await q.startUpdate(tctx.tx, id, version, tctx.clock.now());
    if (!r) throw errors.conflict('plugin_changed_meanwhile', { id: current.marketplace_id });
    await q.notifyPluginChanged(tctx.tx, id);
    return r;
  });
  ctx.plugins.startPipeline(id);
  return pluginJson(row);
}

/**
 * The admin entry of a plugin (for the admin panel), read from the stored artifact so every
 * instance serves the same bytes. `bytes` is null when the caller already has this sha256.
 */
export async function adminBundle(
  ctx: Ctx,
  id: string,
  knownSha256?: string,
): Promise<{ sha256: string; bytes: Buffer | null }> {
  const row = await findOr404(ctx, id);
  const missing = () => errors.notFound('plugin_no_admin_extension', { id: row.marketplace_id });
  if (!row.admin_sha256 || !row.artifact_sha256 || !row.manifest?.admin) throw missing();
  if (knownSha256 === row.admin_sha256) return { sha256: row.admin_sha256, bytes: null };
  const artifact = await q.readArtifact(ctx.db, row.artifact_sha256);
  const file = artifact ? (await readPackage(artifact)).files.get(safeEntryPath(row.manifest.admin)) : undefined;
  if (!file) throw missing();
  return { sha256: row.admin_sha256, bytes: file };
}

export { listLocalPackages, type LocalPackage, type LocalPackageProblem } from './local-packages.ts';

export interface InstallState {
  plugin_id: string;
  installed_version: string;
  status: q.PluginRow['status'];
  rollback: q.PluginRow['rollback'];
}

/** What is installed, by marketplace id: the admin marketplace view merges it into the feed. */
export async function installStates(ctx: Ctx): Promise<Map<string, InstallState>> {
  const rows = await q.listAllPluginRows(ctx.db);
  return new Map(
    rows.map((r) => [
      r.marketplace_id,
      { plugin_id: r.id, installed_version: r.version, status: r.status, rollback: r.rollback },
    ]),
  );
}
