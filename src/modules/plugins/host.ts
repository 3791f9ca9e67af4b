import type { FastifyBaseLogger } from 'fastify';
import { SubscriberRegistry, type EventHandler } from '../../platform/events/bus.ts';
import type { Providers } from '../../platform/providers.ts';
import type { ConfigValue } from './config-values.ts';
import { PluginRouter } from './plugin-router.ts';
import type { PluginGrant } from './rights.ts';
import { activateProviders, removeProviders, type StagedProvider } from './provider-registration.ts';
import type { HealthBook } from './sandbox/health.ts';
import type { PluginProcess } from './sandbox/plugin-process.ts';

const UNLOAD_TIMEOUT_MS = 5_000;

/**
 * What one `register(ctx)` call registered. It stays `staged` (invisible) until the host
 * activates it, so a plugin that throws halfway leaves nothing behind; once `disposed`
 * (uninstall, update, reload) late registrations through its old ctx are ignored.
 */
export class Registration {
  readonly subs: { pattern: string; handler: EventHandler }[] = [];
  readonly admin = new PluginRouter();
  readonly store = new PluginRouter();
  /** Payment and notification providers (provider-registration.ts). */
  readonly providers: StagedProvider[] = [];
  state: 'staged' | 'active' | 'disposed' = 'staged';
  constructor(
    /** The plugin's rights and the ones it used (rights.ts). */
    readonly grant: PluginGrant,
  ) {}
}

/** A plugin's code as loaded on this instance. */
export interface LoadedPlugin {
  rowId: string;
  manifestId: string;
  version: string;
  sha256: string;
  /** The stored config it runs with (compared on reconcile to spot a configure elsewhere). */
  configStamp: string;
  /** The plugin's own process, where its code runs (sandbox/). */
  proc: PluginProcess;
  /** The plugin has `onConfigure`: a new configuration is handed to it instead of a reload. */
  onConfigure: boolean;
  registration: Registration;
  config: { current: Readonly<Record<string, ConfigValue>> };
}

/**
 * The plugins running in this instance: their subscribers (on `bus`, owned by the manifest id)
 * and routers (looked up per request by the catch-all routes). The host only holds what it is
 * given; the lifecycle (lifecycle.ts) decides what to load, swap or unload, one change at a time.
 * A swap is synchronous, so a request or an event sees either the old registration or the new
 * one, never a mix.
 */
export class PluginHost {
  readonly bus = new SubscriberRegistry();
  readonly stats = { routeErrors: 0, routeTimeouts: 0, eventErrors: 0 };
  private readonly loaded = new Map<string, LoadedPlugin>();
  /** Set by the lifecycle: what to do when a live plugin's process dies (restart or fail it). */
  onCrash: (p: LoadedPlugin, reason: string) => void = () => {};

  constructor(
    private readonly log: FastifyBaseLogger,
    /** The app's provider registries: a plugin's providers are live exactly while it is. */
    readonly providers: Providers,
    /** Calls, errors, time and crashes of each plugin on this instance. */
    readonly health: HealthBook,
  ) {}

  /** A plugin process ended on its own: reported only for the live registration. */
  crashed(p: LoadedPlugin, reason: string): void {
    if (this.loaded.get(p.manifestId) === p) this.onCrash(p, reason);
  }

  router(surface: 'admin' | 'store', manifestId: string) {
    return this.loaded.get(manifestId)?.registration[surface];
  }

  isLoaded(manifestId: string, rowId: string): LoadedPlugin | undefined {
    const p = this.loaded.get(manifestId);
    return p?.rowId === rowId ? p : undefined;
  }

  loadedPlugins(): LoadedPlugin[] {
    return [...this.loaded.values()];
  }

  /** Makes a staged plugin live, replacing the running version of the same plugin in one step. */
  activate(next: LoadedPlugin): void {
    const prev = this.loaded.get(next.manifestId);
    if (prev) {
      this.bus.removeOwner(prev.manifestId);
      prev.registration.state = 'disposed';
    }
    for (const s of next.registration.subs) this.bus.on(s.pattern, s.handler, next.manifestId);
    activateProviders(this.providers, next.manifestId, next.registration.providers);
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

  /**
   * Takes a plugin out: subscribers and routes first (synchronously), then its own clean-up; the
   * promise settles once its process has ended (shutdown waits for it, a swap does not).
   */
  unload(manifestId: string): Promise<void> {
    const prev = this.loaded.get(manifestId);
    if (!prev) return Promise.resolve();
    this.bus.removeOwner(manifestId);
    removeProviders(this.providers, manifestId);
    prev.registration.state = 'disposed';
    this.loaded.delete(manifestId);
    return this.callUnload(prev);
  }

  /** Calls in flight finish, then its own clean-up (`unload()`), each within a deadline; then the process ends. */
  private async callUnload(p: LoadedPlugin): Promise<void> {
    try {
      await p.proc.idle(UNLOAD_TIMEOUT_MS);
      if (p.proc.running) await p.proc.request('unload', {}, UNLOAD_TIMEOUT_MS, false);
    } catch (err) {
      this.log.warn({ err, plugin: p.manifestId }, 'plugin unload failed');
    }
    await p.proc.stop();
  }
}
