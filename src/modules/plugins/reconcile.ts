import { inTx } from '../../platform/context.ts';
import { reconfigurePlugin, stageStoredPlugin } from './load-plugin.ts';
import { removePluginFiles } from './loader.ts';
import * as q from './queries.ts';
import type { PluginRuntime } from './runtime.ts';

/** Rows whose code should run on every instance: installed, or still running the old version while updating. */
function wanted(row: q.PluginRow): boolean {
  return (row.status === 'installed' || row.status === 'updating') && !!row.artifact_sha256 && !!row.manifest?.server;
}

async function markBroken(
  rt: PluginRuntime,
  row: q.PluginRow,
  status: 'failed' | 'disabled',
  error: string,
): Promise<void> {
  rt.deps.log.error(
    { plugin: row.marketplace_id, error },
    status === 'failed' ? 'plugin failed to load' : 'plugin disabled',
  );
  await inTx(rt.ctx, async (tctx) => {
    if (await q.finishPipeline(tctx.tx, row.id, 'installed', { status, error, updated_at: tctx.clock.now() }))
      await q.notifyPluginChanged(tctx.tx, row.id);
  });
}

async function reconcileRow(rt: PluginRuntime, row: q.PluginRow): Promise<void> {
  const { host } = rt;
  const current = host.isLoaded(row.manifest_id, row.id);
  if (!wanted(row)) {
    if (current) host.unload(row.manifest_id);
    return;
  }
  try {
    if (current && current.sha256 === row.artifact_sha256) {
      if (current.configStamp !== JSON.stringify(row.config)) await reconfigurePlugin(rt, current, row);
      return;
    }
    if (row.license_key) {
      const verdict = await rt.licenseCheck(rt.ctx, row);
      if (!verdict.ok) {
        host.unload(row.manifest_id);
        return markBroken(rt, row, 'disabled', `License check failed: ${verdict.reason}`);
      }
    }
    host.activate(await stageStoredPlugin(rt, row));
  } catch (err) {
    host.unload(row.manifest_id);
    // An updating row keeps its status: its pipeline decides. An installed one that cannot load is failed.
    if (row.status === 'installed') await markBroken(rt, row, 'failed', (err as Error).message);
  }
}

/** A plugin whose row is gone (uninstalled): out of the host, and its extracted files off this disk. */
function removeUninstalled(rt: PluginRuntime, manifestId: string, rowId: string): void {
  rt.host.unload(manifestId);
  rt.host.health.forget(rowId);
  rt.track(removePluginFiles(rt.deps.config.dataDir, manifestId));
}

/**
 * Brings this instance in line with the database: loads installed plugins it does not run (or
 * runs at another version), applies configuration saved elsewhere, unloads what was
 * uninstalled, failed or disabled. With an id, only that row (the NOTIFY path).
 */
export function reconcile(rt: PluginRuntime, id?: string): Promise<void> {
  return rt.exclusive(async () => {
    const db = rt.deps.database.db;
    if (id) {
      const row = await q.findPlugin(db, id);
      if (row) return reconcileRow(rt, row);
      for (const p of rt.host.loadedPlugins()) if (p.rowId === id) removeUninstalled(rt, p.manifestId, p.rowId);
      return;
    }
    const rows = await q.listAllPluginRows(db);
    for (const row of rows) await reconcileRow(rt, row);
    const ids = new Set(rows.map((r) => r.id));
    for (const p of rt.host.loadedPlugins()) if (!ids.has(p.rowId)) removeUninstalled(rt, p.manifestId, p.rowId);
  });
}
