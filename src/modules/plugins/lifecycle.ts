import type { Ctx } from '../../platform/context.ts';
import { PluginHost } from './host.ts';
import { runPipeline } from './pipeline.ts';
import * as q from './queries.ts';
import { reconcile } from './reconcile.ts';
import { HealthBook } from './sandbox/health.ts';
import { recoverPlugin } from './sandbox/recover.ts';
import type { LicenseCheck, PluginRuntime, PluginRuntimeDeps } from './runtime.ts';

/** How often every instance compares what it runs with the database (the fallback to NOTIFY). */
export const RECONCILE_EVERY_MS = 30_000;

/**
 * The plugins of this instance over time (`app.plugins`): start, stop, the install and update
 * pipeline, and reconcile. It owns the host (what runs now) and drives it; the steps themselves
 * are pipeline.ts and reconcile.ts. Background work is tracked so tests and shutdown can wait.
 */
export class PluginLifecycle implements PluginRuntime {
  readonly host: PluginHost;
  private lock: Promise<unknown> = Promise.resolve();
  private readonly tasks = new Set<Promise<unknown>>();
  private stopFollowing?: () => Promise<void>;

  constructor(readonly deps: PluginRuntimeDeps) {
    this.host = new PluginHost(deps.log, deps.providers, new HealthBook(deps.config.pluginSandbox, deps.clock));
    this.host.onCrash = (p, reason) => this.track(recoverPlugin(this, p, reason));
  }

  get licenseCheck(): LicenseCheck {
    return this.deps.licenseCheck;
  }

  get ctx(): Ctx {
    return { db: this.deps.database.db, clock: this.deps.clock, log: this.deps.log };
  }

  /** Instance start (workers): resume interrupted pipelines, load installed plugins, follow NOTIFY. */
  async start(): Promise<void> {
    this.stopFollowing ??= await this.follow();
  }

  async stop(): Promise<void> {
    await this.stopFollowing?.();
    this.stopFollowing = undefined;
    await this.settled();
    await Promise.all(this.host.loadedPlugins().map((p) => this.host.unload(p.manifestId)));
  }

  /** Runs the install/update pipeline of a row in the background (poll the row for its outcome). */
  startPipeline(id: string): void {
    this.track(runPipeline(this, id));
  }

  /** Aligns this instance with a row now (after a configure or uninstall made here), or with every row. */
  reconcile(id?: string): Promise<void> {
    return reconcile(this, id);
  }

  /**
   * Picks up installs and updates no instance is working on: at start (on PGlite every one, as
   * this process alone owns the data; on PostgreSQL those whose lease expired) and periodically.
   */
  async resumePipelines(opts: { force: boolean }): Promise<void> {
    const db = this.deps.database.db;
    const ids = opts.force
      ? (await q.listPluginRowsByStatus(db, ['installing', 'updating'])).map((r) => r.id)
      : await q.listUnleasedPipelines(db, this.deps.clock.now());
    for (const id of ids) this.track(runPipeline(this, id, { force: opts.force }));
  }

  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.lock.then(fn, fn);
    this.lock = run.catch(() => {});
    return run;
  }

  track(work: Promise<unknown>): void {
    const task = work.catch((err) => this.deps.log.error({ err }, 'plugin background task failed'));
    this.tasks.add(task);
    void task.finally(() => this.tasks.delete(task));
  }

  /** Resolves once no background task is left (new ones started meanwhile included). */
  async settled(): Promise<void> {
    while (this.tasks.size) await Promise.all([...this.tasks]);
  }

  /** Recover interrupted pipelines, load every installed plugin, then follow changes (NOTIFY and a periodic pass). */
  private async follow(): Promise<() => Promise<void>> {
    const { database } = this.deps;
    await this.resumePipelines({ force: database.kind === 'pglite' });
    await this.reconcile();
    const unlisten = await database.listen(q.PLUGINS_CHANNEL, (id) => this.track(this.reconcile(id || undefined)));
    const timer = setInterval(
      () => this.track(this.resumePipelines({ force: false }).then(() => this.reconcile())),
      RECONCILE_EVERY_MS,
    );
    timer.unref();
    return async () => {
      clearInterval(timer);
      await unlisten();
    };
  }
}
