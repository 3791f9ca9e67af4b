import { rm } from 'node:fs/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { Plugin } from '../../../plugin-sdk/index.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Config } from '../../platform/config.ts';
import type { Ctx } from '../../platform/context.ts';
import type { Database } from '../../platform/db/database.ts';
import { SubscriberRegistry } from '../../platform/events/bus.ts';
import { readPackage, type PluginPackage } from '../../plugin-package/read-package.ts';
import { pluginConfig, type ConfigValue } from './config-values.ts';
import { createHostContext, Registration } from './host-context.ts';
import { extractPackage, importPlugin, pluginRoot } from './loader.ts';
import { runPipeline } from './pipeline.ts';
import { schemaNameOf } from './raw-db.ts';
import * as q from './queries.ts';
import { reconcile, startPluginRuntime } from './reconcile.ts';

export interface PluginHostDeps {
  database: Database;
  config: Config;
  clock: Clock;
  log: FastifyBaseLogger;
}

/** A plugin's code as loaded on this instance. */
export interface LoadedPlugin {
  rowId: string;
  manifestId: string;
  version: string;
  sha256: string;
  /** The stored config it runs with (compared on reconcile to spot a configure elsewhere). */
  configStamp: string;
  plugin: Plugin;
  registration: Registration;
  config: { current: Readonly<Record<string, ConfigValue>> };
}

/**
 * Licence seam for paid items (row has a licence key): called before a plugin's code loads, at
 * install, update and every load. `ok: false` keeps the code out (install fails, a load disables).
 */
export type LicenceCheck = (ctx: Ctx, row: q.PluginRow) => Promise<{ ok: true } | { ok: false; reason: string }>;

const REGISTER_TIMEOUT_MS = 30_000;
const UNLOAD_TIMEOUT_MS = 5_000;

export class PluginTimeoutError extends Error {}

/** Plugin code may hang: every call into it is raced against a timer. */
export function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new PluginTimeoutError(`${what} did not finish within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * The plugins running in this instance: their subscribers (on `bus`, owned by the manifest id)
 * and routers (looked up per request by the catch-all routes). Loads, swaps and unloads happen
 * one at a time (`exclusive`), and a swap is synchronous, so a request or an event sees either
 * the old registration or the new one, never a mix.
 */
export class PluginHost {
  readonly bus = new SubscriberRegistry();
  readonly stats = { routeErrors: 0, routeTimeouts: 0, eventErrors: 0 };
  licenceCheck: LicenceCheck = async () => ({ ok: true });
  private readonly loaded = new Map<string, LoadedPlugin>();
  private lock: Promise<unknown> = Promise.resolve();
  private readonly tasks = new Set<Promise<unknown>>();
  private stopRuntime?: () => Promise<void>;

  constructor(readonly deps: PluginHostDeps) {}

  /** Instance start (workers): resume interrupted pipelines, load installed plugins, follow NOTIFY. */
  async start(): Promise<void> {
    this.stopRuntime ??= await startPluginRuntime(this);
  }

  async stop(): Promise<void> {
    await this.stopRuntime?.();
    this.stopRuntime = undefined;
    await this.settled();
    for (const p of this.loadedPlugins()) this.unload(p.manifestId);
  }

  /** Runs the install/update pipeline of a row in the background (poll the row for its outcome). */
  startPipeline(id: string): void {
    this.track(runPipeline(this, id));
  }

  /** Aligns this instance with a row now (after a configure or uninstall made here). */
  reconcile(id?: string): Promise<void> {
    return reconcile(this, id);
  }

  get ctx(): Ctx {
    return { db: this.deps.database.db, clock: this.deps.clock, log: this.deps.log };
  }

  router(surface: 'admin' | 'store', manifestId: string) {
    return this.loaded.get(manifestId)?.registration[surface];
  }

  /** Runs fn after every earlier exclusive section finished. */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.lock.then(fn, fn);
    this.lock = run.catch(() => {});
    return run;
  }

  /** Keeps a background task (pipeline, reconcile) so tests and shutdown can wait for it. */
  track(work: Promise<unknown>): void {
    const task = work.catch((err) => this.deps.log.error({ err }, 'plugin background task failed'));
    this.tasks.add(task);
    void task.finally(() => this.tasks.delete(task));
  }

  /** Resolves once no background task is left (new ones started meanwhile included). */
  async settled(): Promise<void> {
    while (this.tasks.size) await Promise.all([...this.tasks]);
  }

  /**
   * Extracts, imports and registers a plugin without making anything live. Throws (after
   * disposing what register added) when the code or `register` fails.
   */
  async stage(row: q.PluginRow, pkg: PluginPackage): Promise<LoadedPlugin> {
    const manifest = pkg.manifest;
    const folder = await extractPackage(this.deps.config.dataDir, pkg);
    const plugin = await importPlugin(folder, manifest.server!);
    const registration = new Registration();
    const config = { current: Object.freeze(pluginConfig(manifest.config ?? [], row.config, this.deps.config.encryptionKey)) };
    const ctx = createHostContext({
      manifestId: manifest.id,
      version: manifest.version,
      schema: schemaNameOf(manifest.id),
      database: this.deps.database,
      clock: this.deps.clock,
      log: this.deps.log,
      bus: this.bus,
      registration,
      config: () => config.current,
      stats: this.stats,
    });
    const staged: LoadedPlugin = { rowId: row.id, manifestId: manifest.id, version: manifest.version, sha256: pkg.sha256, configStamp: JSON.stringify(row.config), plugin, registration, config };
    try {
      await withTimeout(Promise.resolve().then(() => plugin.register(ctx)), REGISTER_TIMEOUT_MS, `${manifest.id} register(ctx)`);
    } catch (err) {
      this.discard(staged);
      throw new Error(`Plugin threw while loading: ${(err as Error)?.message ?? String(err)}`);
    }
    return staged;
  }

  /** Makes a staged plugin live, replacing the running version of the same plugin in one step. */
  activate(next: LoadedPlugin): void {
    const prev = this.loaded.get(next.manifestId);
    if (prev) {
      this.bus.removeOwner(prev.manifestId);
      prev.registration.state = 'disposed';
    }
    for (const s of next.registration.subs) this.bus.on(s.pattern, s.handler, next.manifestId);
    next.registration.state = 'active';
    this.loaded.set(next.manifestId, next);
    if (prev) void this.callUnload(prev);
  }

  /** Drops a staged plugin that will never go live. */
  discard(staged: LoadedPlugin | undefined): void {
    if (!staged || staged.registration.state === 'disposed') return;
    staged.registration.state = 'disposed';
    void this.callUnload(staged);
  }

  /** Takes a plugin out: subscribers and routes first (synchronously), then its own clean-up. */
  unload(manifestId: string, opts: { removeFiles?: boolean } = {}): void {
    const prev = this.loaded.get(manifestId);
    if (prev) {
      this.bus.removeOwner(manifestId);
      prev.registration.state = 'disposed';
      this.loaded.delete(manifestId);
      void this.callUnload(prev);
    }
    if (opts.removeFiles) this.track(rm(pluginRoot(this.deps.config.dataDir, manifestId), { recursive: true, force: true }));
  }

  private async callUnload(p: LoadedPlugin): Promise<void> {
    if (typeof p.plugin.unload !== 'function') return;
    try {
      await withTimeout(Promise.resolve().then(() => p.plugin.unload!()), UNLOAD_TIMEOUT_MS, `${p.manifestId} unload()`);
    } catch (err) {
      this.deps.log.warn({ err, plugin: p.manifestId }, 'plugin unload failed');
    }
  }

  /** Loads an installed row from its stored artifact (start, another instance's install). */
  async loadFromDatabase(row: q.PluginRow): Promise<LoadedPlugin> {
    const bytes = row.artifact_sha256 ? await q.readArtifact(this.deps.database.db, row.artifact_sha256) : undefined;
    if (!bytes) throw new Error(`Artifact ${row.artifact_sha256} of ${row.marketplace_id}@${row.version} is missing from the database`);
    return this.stage(row, await readPackage(bytes));
  }

  /** New configuration for a running plugin: `onConfigure(config)` when it has one, else a reload. */
  async applyConfig(current: LoadedPlugin, row: q.PluginRow): Promise<void> {
    const next = Object.freeze(pluginConfig(row.manifest?.config ?? [], row.config, this.deps.config.encryptionKey));
    if (typeof current.plugin.onConfigure === 'function') {
      current.config.current = next;
      current.configStamp = JSON.stringify(row.config);
      try {
        await withTimeout(Promise.resolve().then(() => current.plugin.onConfigure!(next)), REGISTER_TIMEOUT_MS, `${current.manifestId} onConfigure()`);
      } catch (err) {
        this.deps.log.error({ err, plugin: current.manifestId }, 'plugin onConfigure failed; it keeps running with the new values');
      }
      return;
    }
    this.activate(await this.loadFromDatabase(row));
  }

  isLoaded(manifestId: string, rowId: string): LoadedPlugin | undefined {
    const p = this.loaded.get(manifestId);
    return p?.rowId === rowId ? p : undefined;
  }

  loadedPlugins(): LoadedPlugin[] {
    return [...this.loaded.values()];
  }
}
