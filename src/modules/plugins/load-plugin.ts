import { readPackage, type PluginPackage } from '../../plugin-package/read-package.ts';
import { pluginConfig } from './config-values.ts';
import { createHostContext } from './host-context.ts';
import { Registration, type LoadedPlugin } from './host.ts';
import { extractPackage, importPlugin } from './loader.ts';
import * as q from './queries.ts';
import { schemaNameOf } from './raw-db.ts';
import { grantOf } from './rights.ts';
import { ensurePluginRoleNow } from './plugin-role.ts';
import { rightsOf } from '../../plugin-package/permissions.ts';
import type { PluginRuntime } from './runtime.ts';
import { withTimeout } from './timeout.ts';

const REGISTER_TIMEOUT_MS = 30_000;
const NO_READ_APIS = {
  retrieveOrder: () => Promise.reject(new Error('Read APIs are not wired in this process')),
};

/**
 * Extracts, imports and registers a plugin without making anything live (the caller activates
 * it on the host). Throws, after disposing what register added, when the code or `register` fails.
 */
export async function stagePlugin(rt: PluginRuntime, row: q.PluginRow, pkg: PluginPackage): Promise<LoadedPlugin> {
  const { deps, host } = rt;
  const manifest = pkg.manifest;
  const folder = await extractPackage(deps.config.dataDir, pkg);
  // Its role may be missing (installed before roles existed, or on an instance restored elsewhere).
  await ensurePluginRoleNow(deps.database, schemaNameOf(manifest.id));
  const plugin = await importPlugin(folder, manifest.server!);
  const registration = new Registration(grantOf(manifest.id, rightsOf(manifest)));
  const config = { current: Object.freeze(pluginConfig(manifest.config ?? [], row.config, deps.config.encryptionKey)) };
  const ctx = createHostContext({
    manifestId: manifest.id,
    version: manifest.version,
    schema: schemaNameOf(manifest.id),
    database: deps.database,
    clock: deps.clock,
    log: deps.log,
    bus: host.bus,
    providers: host.providers,
    registration,
    grant: registration.grant,
    readApis: deps.readApis ?? NO_READ_APIS,
    config: () => config.current,
    stats: host.stats,
  });
  const staged: LoadedPlugin = {
    rowId: row.id,
    manifestId: manifest.id,
    version: manifest.version,
    sha256: pkg.sha256,
    configStamp: JSON.stringify(row.config),
    plugin,
    registration,
    config,
  };
  try {
    await withTimeout(
      Promise.resolve().then(() => plugin.register(ctx)),
      REGISTER_TIMEOUT_MS,
      `${manifest.id} register(ctx)`,
    );
  } catch (err) {
    host.discard(staged);
    throw new Error(`Plugin threw while loading: ${(err as Error)?.message ?? String(err)}`);
  }
  return staged;
}

/** Stages an installed row from its stored artifact (start, another instance's install). */
export async function stageStoredPlugin(rt: PluginRuntime, row: q.PluginRow): Promise<LoadedPlugin> {
  const bytes = row.artifact_sha256 ? await q.readArtifact(rt.deps.database.db, row.artifact_sha256) : undefined;
  if (!bytes)
    throw new Error(
      `Artifact ${row.artifact_sha256} of ${row.marketplace_id}@${row.version} is missing from the database`,
    );
  return stagePlugin(rt, row, await readPackage(bytes));
}

/** New configuration for a running plugin: `onConfigure(config)` when it has one, else a reload. */
export async function reconfigurePlugin(rt: PluginRuntime, current: LoadedPlugin, row: q.PluginRow): Promise<void> {
  const next = Object.freeze(pluginConfig(row.manifest?.config ?? [], row.config, rt.deps.config.encryptionKey));
  if (typeof current.plugin.onConfigure === 'function') {
    current.config.current = next;
    current.configStamp = JSON.stringify(row.config);
    try {
      await withTimeout(
        Promise.resolve().then(() => current.plugin.onConfigure!(next)),
        REGISTER_TIMEOUT_MS,
        `${current.manifestId} onConfigure()`,
      );
    } catch (err) {
      rt.deps.log.error(
        { err, plugin: current.manifestId },
        'plugin onConfigure failed; it keeps running with the new values',
      );
    }
    return;
  }
  rt.host.activate(await stageStoredPlugin(rt, row));
}
