import { readPackage, type PluginPackage } from '../../plugin-package/read-package.ts';
import { pluginConfig } from './config-values.ts';
import { createHostContext } from './host-context.ts';
import { Registration, type LoadedPlugin } from './host.ts';
import { extractPackage } from './loader.ts';
import * as q from './queries.ts';
import { schemaNameOf } from './raw-db.ts';
import { grantOf } from './rights.ts';
import { ensurePluginRoleNow } from './plugin-role.ts';
import { rightsOf } from '../../plugin-package/permissions.ts';
import type { PluginRuntime } from './runtime.ts';
import { PluginStartError, startPluginProcess } from './sandbox/start-plugin.ts';

const REGISTER_TIMEOUT_MS = 30_000;
const NO_READ_APIS = {
  retrieveOrder: () => Promise.reject(new Error('Read APIs are not wired in this process')),
};

/**
 * Extracts the package, starts the plugin's own process and runs its `register(ctx)` there,
 * without making anything live (the caller activates it on the host). Throws, after disposing
 * what register added, when the code or `register` fails.
 */
export async function stagePlugin(rt: PluginRuntime, row: q.PluginRow, pkg: PluginPackage): Promise<LoadedPlugin> {
  const { deps, host } = rt;
  const manifest = pkg.manifest;
  const folder = await extractPackage(deps.config.dataDir, pkg);
  // Its role may be missing (installed before roles existed, or on an instance restored elsewhere).
  await ensurePluginRoleNow(deps.database, schemaNameOf(manifest.id), {
    vendor: manifest.vendor,
    manifestId: manifest.id,
  });
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
    readApis: deps.readApis ?? NO_READ_APIS,
    config: () => config.current,
    stats: host.stats,
  });
  const staged = { loaded: undefined as LoadedPlugin | undefined };
  let started: Awaited<ReturnType<typeof startPluginProcess>>;
  try {
    started = await startPluginProcess({
      plugin: {
        manifestId: manifest.id,
        rowId: row.id,
        manifest: { ...manifest },
        version: manifest.version,
        grant: registration.grant,
      },
      folder,
      entry: manifest.server!,
      config: deps.config,
      log: deps.log,
      ctx,
      configValues: config.current,
      health: host.health.of(row.id),
      registerTimeoutMs: REGISTER_TIMEOUT_MS,
      onExit: (reason) => staged.loaded && host.crashed(staged.loaded, reason),
    });
  } catch (err) {
    registration.state = 'disposed';
    if (err instanceof PluginStartError && err.phase === 'import') throw new Error(err.message);
    throw new Error(`Plugin threw while loading: ${(err as Error)?.message ?? String(err)}`);
  }
  staged.loaded = {
    rowId: row.id,
    manifestId: manifest.id,
    version: manifest.version,
    sha256: pkg.sha256,
    configStamp: JSON.stringify(row.config),
    proc: started.proc,
    onConfigure: started.onConfigure,
    registration,
    config,
  };
  return staged.loaded;
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
  if (current.onConfigure) {
    current.config.current = next;
    current.configStamp = JSON.stringify(row.config);
    try {
      await current.proc.request('configure', { config: next }, REGISTER_TIMEOUT_MS, false);
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
