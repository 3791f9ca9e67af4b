import path from 'node:path';
import { type Env, intVar } from './env.ts';

/** Plugins and the providers they bring (docs/configuration.md "Plugins and providers"). */
export interface PluginsConfig {
  pluginsDir: string;
  /** A plugin route handler that has not answered after this long gets a 504. */
  pluginRouteTimeoutMs: number;
  /** Each plugin's server code runs in its own process (modules/plugins/sandbox): its limits. */
  pluginSandbox: PluginSandboxConfig;
  /** A payment or notification provider call (a plugin's) that has not answered by then is given up. */
  providerTimeoutMs: number;
}

export interface PluginSandboxConfig {
  /** V8 heap cap of a plugin process (`--max-old-space-size`), PLUGIN_MEMORY_MB. */
  memoryMb: number;
  /** Deadline of one event handler call (PLUGIN_CALL_TIMEOUT_MS); routes use PLUGIN_ROUTE_TIMEOUT_MS. */
  callTimeoutMs: number;
  /** Crashes within `crashWindowMs` after which the plugin is set failed (PLUGIN_MAX_CRASHES). */
  maxCrashes: number;
  crashWindowMs: number;
  /** First restart delay after a crash, doubled per crash in the window (PLUGIN_RESTART_DELAY_MS). */
  restartDelayMs: number;
  /** Crashes within `rollbackWindowMs` of an update that roll it back to the previous version (PLUGIN_ROLLBACK_CRASHES). */
  rollbackCrashes: number;
  /** How long after an update a crash loop rolls back instead of failing (PLUGIN_ROLLBACK_WINDOW_MS). */
  rollbackWindowMs: number;
  /** Where the child runner lives when not beside the plugins module (a compiled bundle). */
  runnerDir?: string;
}

export function pluginsConfig(env: Env): PluginsConfig {
  return {
    pluginsDir: path.resolve(env.PLUGINS_DIR || './plugins'),
    pluginRouteTimeoutMs: intVar(env, 'PLUGIN_ROUTE_TIMEOUT_MS', 10_000),
    pluginSandbox: {
      memoryMb: Math.max(16, intVar(env, 'PLUGIN_MEMORY_MB', 128)),
      callTimeoutMs: Math.max(1, intVar(env, 'PLUGIN_CALL_TIMEOUT_MS', 5_000)),
      maxCrashes: Math.max(1, intVar(env, 'PLUGIN_MAX_CRASHES', 5)),
      crashWindowMs: intVar(env, 'PLUGIN_CRASH_WINDOW_MS', 10 * 60_000),
      restartDelayMs: intVar(env, 'PLUGIN_RESTART_DELAY_MS', 1_000),
      rollbackCrashes: Math.max(1, intVar(env, 'PLUGIN_ROLLBACK_CRASHES', 3)),
      rollbackWindowMs: intVar(env, 'PLUGIN_ROLLBACK_WINDOW_MS', 10 * 60_000),
      runnerDir: env.PLUGIN_RUNNER_DIR || undefined,
    },
    providerTimeoutMs: intVar(env, 'PROVIDER_TIMEOUT_MS', 15_000),
  };
}
