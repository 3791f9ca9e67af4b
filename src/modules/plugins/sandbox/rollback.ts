import { inTx } from '../../../platform/context.ts';
import { emit } from '../../../platform/events/emit.ts';
import { reportCrashRollback } from '../../federation/crash-report.ts';
import { createNotification } from '../../notifications/service.ts';
import type { LoadedPlugin } from '../host.ts';
import { stageStoredPlugin } from '../load-plugin.ts';
import * as q from '../queries.ts';
import type { PluginRuntime } from '../runtime.ts';
import { pluginJson } from '../view.ts';

/**
 * Whether a crash of this plugin rolls its update back: it was updated less than
 * PLUGIN_ROLLBACK_WINDOW_MS ago, the version before is kept, and it crashed
 * PLUGIN_ROLLBACK_CRASHES times in the crash window.
 */
export function shouldRollBack(rt: PluginRuntime, row: q.PluginRow | undefined, recentCrashes: number): boolean {
  const prev = row?.previous_release;
  if (!row || !prev?.artifact_sha256 || row.status !== 'installed') return false;
  const { rollbackCrashes, rollbackWindowMs } = rt.deps.config.pluginSandbox;
  const since = rt.deps.clock.now().getTime() - new Date(prev.replaced_at).getTime();
  return since <= rollbackWindowMs && recentCrashes >= rollbackCrashes;
}

/**
 * Goes back to the version before the update: its code (the artifact kept in plugin_artifacts),
 * its manifest, rights and configuration; the plugin's migrations stay applied (as on uninstall).
 * The crash-looping version is held out of the updates offered, `plugin.rolled_back` fires with a
 * notification, the row shows `rollback`, and the marketplace receives a crash report.
 */
export async function rollBackPlugin(rt: PluginRuntime, dead: LoadedPlugin, row: q.PluginRow, reason: string) {
  const prev = row.previous_release!;
  await rt.exclusive(async () => {
    if (rt.host.isLoaded(dead.manifestId, dead.rowId) === dead) rt.host.unload(dead.manifestId);
  });
  const restored = await inTx(rt.ctx, async (tctx) => {
    const at = tctx.clock.now();
    const done = await q.finishPipeline(tctx.tx, row.id, 'installed', {
      version: prev.version,
      artifact_sha256: prev.artifact_sha256,
      manifest: prev.manifest,
      admin_sha256: prev.admin_sha256,
      granted_permissions: prev.granted_permissions,
      config: prev.config,
      previous_release: null,
      held_versions: [...new Set([...row.held_versions, row.version])],
      rollback: { from: row.version, to: prev.version, reason, at: at.toISOString() },
      error: null,
      updated_at: at,
    });
    if (!done) return null;
    await emit(tctx, 'plugin.rolled_back', { ...pluginJson(done), from: row.version, to: prev.version, reason });
    const name = done.manifest?.name ?? done.marketplace_id;
    await createNotification(tctx, {
      type: 'plugin.rolled_back',
      title: `${name} rolled back to ${prev.version}`,
      message: `${done.marketplace_id} ${row.version} kept crashing after the update (${reason}), so the shop went back to ${prev.version} with its configuration. ${row.version} is no longer offered as an update; its migrations stay applied.`,
      data: { plugin_id: done.id, marketplace_id: done.marketplace_id, from: row.version, to: prev.version, reason },
      dedupeKey: `plugin.rolled_back:${done.id}:${row.version}`,
    });
    await q.notifyPluginChanged(tctx.tx, done.id);
    return done;
  });
  if (!restored) return;
  rt.host.health.forget(row.id); // the restored version starts with a clean crash record
  rt.deps.log.warn({ plugin: row.marketplace_id, from: row.version, to: prev.version, reason }, 'plugin rolled back');
  if (restored.manifest?.server) {
    try {
      await rt.exclusive(async () => {
        rt.host.activate(await stageStoredPlugin(rt, restored));
      });
    } catch (err) {
      const message = `Rolled back to ${prev.version}, which did not load either: ${(err as Error).message}`;
      await q.updatePluginRow(rt.ctx.db, row.id, { status: 'failed', error: message, updated_at: rt.deps.clock.now() });
      await q.notifyPluginChanged(rt.ctx.db, row.id);
    }
  }
  if (row.source === 'federation')
    await reportCrashRollback(rt.ctx, rt.deps.config, {
      marketplaceId: row.marketplace_id,
      version: row.version,
      rolledBackTo: prev.version,
      reason,
    });
}
