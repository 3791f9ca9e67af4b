import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PluginContext } from '../../../../plugin-sdk/index.ts';
import type { Config } from '../../../platform/config.ts';
import type { FastifyBaseLogger } from 'fastify';
import { safeEntryPath } from '../../../plugin-package/read-package.ts';
import type { PluginIdentity } from './authorize.ts';
import type { PluginHealth } from './health.ts';
import { PluginCallError, PluginProcess, PluginUnavailableError } from './plugin-process.ts';
import { ctxServer } from './serve-ctx.ts';

export interface StartPluginOptions {
  plugin: PluginIdentity & { version: string };
  folder: string;
  entry: string;
  config: Config;
  log: FastifyBaseLogger;
  /** The host context the child's ctx calls are served through. */
  ctx: PluginContext;
  configValues: Readonly<Record<string, unknown>>;
  health: PluginHealth;
  registerTimeoutMs: number;
  /** The process ended without the shop stopping it (after a successful start). */
  onExit(reason: string): void;
}

/** A load that failed: `phase` import (the entry is broken) or register (its register threw or died). */
export class PluginStartError extends Error {
  constructor(
    message: string,
    readonly phase: 'import' | 'register',
  ) {
    super(message);
  }
}

/**
 * Starts the plugin's process, imports its server entry there and runs `register(ctx)` with the
 * ctx served by this shop. Resolves once register finished and every registration it made was
 * accepted; on failure the process is stopped and the error says why.
 */
export async function startPluginProcess(
  o: StartPluginOptions,
): Promise<{ proc: PluginProcess; onConfigure: boolean }> {
  const { config, plugin } = o;
  const refused: string[] = [];
  let proc: PluginProcess | undefined;
  const serve = ctxServer({
    plugin,
    ctx: o.ctx,
    proc: () => proc!,
    timeouts: {
      routeMs: config.pluginRouteTimeoutMs,
      eventMs: config.pluginSandbox.callTimeoutMs,
      providerMs: config.providerTimeoutMs,
    },
    refused,
  });
  const log = o.log.child({ plugin: plugin.manifestId });
  let started = false;
  proc = await PluginProcess.spawn({
    manifestId: plugin.manifestId,
    folder: o.folder,
    scratch: path.join(config.dataDir, 'plugin-scratch', plugin.manifestId),
    sandbox: config.pluginSandbox,
    health: o.health,
    serve: (msg) => {
      const served = serve(msg);
      // A registration refused after register() finished cannot fail the load any more: logged.
      if (started && refused.length) log.error({ error: refused.splice(0).join('; ') }, 'plugin registration refused');
      return served;
    },
    onExit: (reason) => started && o.onExit(reason),
    onOutput: (stream, line) => (stream === 'stderr' ? log.warn({ stream }, line) : log.info({ stream }, line)),
  });
  try {
    const entry = pathToFileURL(path.join(o.folder, safeEntryPath(o.entry))).href;
    const answer = await proc.request(
      'load',
      {
        entry,
        meta: { id: plugin.manifestId, version: plugin.version, entryName: o.entry },
        config: o.configValues,
      },
      o.registerTimeoutMs,
      false,
    );
    if (refused.length) throw new PluginStartError(refused[0], 'register');
    started = true;
    return { proc, onConfigure: answer?.onConfigure === true };
  } catch (err) {
    void proc.stop();
    if (err instanceof PluginStartError) throw err;
    const phase = err instanceof PluginCallError && err.phase === 'import' ? 'import' : 'register';
    // Registrations sent before the failure were refused first: the in-process order of errors.
    const message = refused[0] ?? (err as Error).message;
    if (err instanceof PluginUnavailableError) throw new PluginStartError(message, 'register');
    throw new PluginStartError(message, phase);
  }
}
