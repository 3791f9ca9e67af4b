import { inTx } from '../../platform/context.ts';
import type { PluginHost } from './host.ts';
import { runPipeline } from './pipeline.ts';
import * as q from './queries.ts';

/** How often every instance compares what it runs with the database (the fallback to NOTIFY). */
export const RECONCILE_EVERY_MS = 30_000;

/** Rows whose code should run on every instance: installed, or still running the old version while updating. */
function wanted(row: q.PluginRow): boolean {
  return (row.status === 'installed' || row.status === 'updating') && !!row.artifact_sha256 && !!row.manifest?.server;
}

async function markBroken(host: PluginHost, row: q.PluginRow, status: 'failed' | 'disabled', error: string): Promise<void> {
  host.deps.log.error({ plugin: row.marketplace_id, error }, status === 'failed' ? 'plugin failed to load' : 'plugin disabled');
  await inTx(host.ctx, async (tctx) => {
    if (await q.finishPipeline(tctx.tx, row.id, 'installed', { status, error, updated_at: tctx.clock.now() })) await q.notifyPluginChanged(tctx.tx, row.id);
  });
}

async function reconcileRow(host: PluginHost, row: q.PluginRow): Promise<void> {
  const current = host.isLoaded(row.manifest_id, row.id);
  if (!wanted(row)) {
    if (current) host.unload(row.manifest_id);
    return;
  }
  try {
    if (current && current.sha256 === row.artifact_sha256) {
      if (current.configStamp !== JSON.stringify(row.config)) await host.applyConfig(current, row);
      return;
    }
    if (row.license_key) {
      const verdict = await host.licenceCheck(host.ctx, row);
      if (!verdict.ok) {
        host.unload(row.manifest_id);
        return markBroken(host, row, 'disabled', `Licence check failed: ${verdict.reason}`);
      }
    }
    host.activate(await host.loadFromDatabase(row));
  } catch (err) {
    host.unload(row.manifest_id);
    // An updating row keeps its status: its pipeline decides. An installed one that cannot load is failed.
    if (row.status === 'installed') await markBroken(host, row, 'failed', (err as Error).message);
  }
}

/**
 * Brings this instance in line with the database: loads installed plugins it does not run (or
 * runs at another version), applies configuration saved elsewhere, unloads what was
 * uninstalled, failed or disabled. With an id, only that row (the NOTIFY path).
 */
export function reconcile(host: PluginHost, id?: string): Promise<void> {
  return host.exclusive(async () => {
    const db = host.deps.database.db;
    if (id) {
      const row = await q.findPlugin(db, id);
      if (row) return reconcileRow(host, row);
      for (const p of host.loadedPlugins()) if (p.rowId === id) host.unload(p.manifestId, { removeFiles: true });
      return;
    }
    const rows = await q.listAllPluginRows(db);
    for (const row of rows) await reconcileRow(host, row);
    const ids = new Set(rows.map((r) => r.id));
    for (const p of host.loadedPlugins()) if (!ids.has(p.rowId)) host.unload(p.manifestId, { removeFiles: true });
  });
}

/**
 * Picks up installs and updates no instance is working on: at start (on PGlite every one, as
 * this process alone owns the data; on PostgreSQL those whose lease expired) and periodically.
 */
export async function resumePipelines(host: PluginHost, opts: { force: boolean }): Promise<void> {
  const db = host.deps.database.db;
  const ids = opts.force
    ? (await q.listPluginRowsByStatus(db, ['installing', 'updating'])).map((r) => r.id)
    : await q.listUnleasedPipelines(db, host.deps.clock.now());
  for (const id of ids) host.track(runPipeline(host, id, { force: opts.force }));
}

/** Start of an instance: recover interrupted pipelines, load every installed plugin, then follow changes. */
export async function startPluginRuntime(host: PluginHost): Promise<() => Promise<void>> {
  const { database } = host.deps;
  await resumePipelines(host, { force: database.kind === 'pglite' });
  await reconcile(host);
  const unlisten = await database.listen(q.PLUGINS_CHANNEL, (id) => host.track(reconcile(host, id || undefined)));
  const timer = setInterval(() => host.track(resumePipelines(host, { force: false }).then(() => reconcile(host))), RECONCILE_EVERY_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await unlisten();
  };
}
