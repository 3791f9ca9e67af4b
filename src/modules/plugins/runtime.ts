import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../platform/clock.ts';
import type { Config } from '../../platform/config.ts';
import type { Ctx } from '../../platform/context.ts';
import type { Database } from '../../platform/db/database.ts';
import type { Providers } from '../../platform/providers.ts';
import type { PluginHost } from './host.ts';
import type { PluginReadApis } from './host-context.ts';
import type { PluginRow } from './queries.ts';

export interface PluginRuntimeDeps {
  database: Database;
  config: Config;
  clock: Clock;
  log: FastifyBaseLogger;
  /** Where the plugins' payment and notification providers go live. */
  providers: Providers;
  /** What `ctx.orders.retrieve` & co. read (app.ts wires the domain services). */
  readApis?: PluginReadApis;
  /**
   * Decides whether licensed code may load. Required, with no allow-all default: a shop wired
   * without one fails to compile rather than running paid plugins unchecked.
   */
  licenseCheck: LicenseCheck;
}

/**
 * License seam for paid items (row has a license key): called before a plugin's code loads, at
 * install, update and every load. `ok: false` keeps the code out (install fails, a load disables).
 */
export type LicenseCheck = (ctx: Ctx, row: PluginRow) => Promise<{ ok: true } | { ok: false; reason: string }>;

/**
 * What the lifecycle steps (pipeline.ts, reconcile.ts, load-plugin.ts) work with: the shop around
 * the plugins, this instance's host, the license seam, and one lock so that loads, swaps and
 * unloads happen one at a time. PluginLifecycle (lifecycle.ts) is the one implementation; the
 * steps take this view of it so they never import the class that calls them.
 */
export interface PluginRuntime {
  readonly deps: PluginRuntimeDeps;
  readonly host: PluginHost;
  readonly ctx: Ctx;
  readonly licenseCheck: LicenseCheck;
  /** Runs fn after every earlier exclusive section finished. */
  exclusive<T>(fn: () => Promise<T>): Promise<T>;
  /** Keeps a background task so tests and shutdown can wait for it. */
  track(work: Promise<unknown>): void;
}
