import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { PluginContext } from '../../../../plugin-sdk/index.ts';
import type { Clock } from '../../../platform/clock.ts';
import type { Config } from '../../../platform/config.ts';
import type { Database } from '../../../platform/db/database.ts';
import { SubscriberRegistry } from '../../../platform/events/bus.ts';
import { createProviders } from '../../../platform/providers.ts';
import { rightsOf } from '../../../plugin-package/permissions.ts';
import type { PluginPackage } from '../../../plugin-package/read-package.ts';
import { createHostContext } from '../../plugins/host-context.ts';
import { Registration } from '../../plugins/host.ts';
import { extractPackage } from '../../plugins/loader.ts';
import { applyPluginMigrations, migrationFiles } from '../../plugins/migrations.ts';
import { schemaNameOf, withRawTx } from '../../plugins/raw-db.ts';
import { grantOf } from '../../plugins/rights.ts';
import { HealthBook } from '../../plugins/sandbox/health.ts';
import { PluginCallError, type PluginProcess } from '../../plugins/sandbox/plugin-process.ts';
import { PluginStartError, startPluginProcess } from '../../plugins/sandbox/start-plugin.ts';
import { PluginTimeoutError, withTimeout } from '../../plugins/timeout.ts';
import type { ReviewCheck } from './tables.ts';

export interface SandboxInstallDeps {
  database: Database;
  config: Config;
  clock: Clock;
  log: FastifyBaseLogger;
}

/** The check's verdict while it runs: the first failure wins, and says which step it was. */
class InstallFailed extends Error {}

/** One test install at a time on an instance: each starts a process and the schema is per plugin id. */
let queue: Promise<unknown> = Promise.resolve();

/**
 * The review's test install: the submitted version goes through what a shop's install does, in
 * the same sandbox (plugins/sandbox: its own process, Node's permission model, PLUGIN_MEMORY_MB),
 * against a throwaway shop context of the marketplace's own: its migrations run as its role in its
 * schema (`plugin_<id>` in the marketplace's database, emptied before and dropped after), its
 * `register(ctx)` runs with no configuration, its health is asked (`GET /health` if it has one,
 * else a ping of its process; see smoke), then it is uninstalled
 * (`unload()`, the process ends, the schema goes). Its events go nowhere and read APIs answer
 * nothing. A statement the SQL guard or PostgreSQL refused (outside its schema) fails the check
 * even when the plugin caught the error. Everything within MARKETPLACE_REVIEW_INSTALL_MS.
 */
export function sandboxInstall(deps: SandboxInstallDeps, pkg: PluginPackage): Promise<ReviewCheck> {
  const run = queue.then(() =>
    acrossInstances(deps.database, schemaNameOf(pkg.manifest.id), () => installOnce(deps, pkg)),
  );
  queue = run.catch(() => undefined);
  return run;
}

async function installOnce(deps: SandboxInstallDeps, pkg: PluginPackage): Promise<ReviewCheck> {
  const { manifest } = pkg;
  const schema = schemaNameOf(manifest.id);
  const until = Date.now() + deps.config.reviewInstallMs;
  const left = () => Math.max(1, until - Date.now());
  const steps: string[] = [];
  let proc: PluginProcess | undefined;
  let registration: Registration | undefined;
  const refusals: string[] = [];
  let crashed: string | undefined;
  // A folder of this run's own (code and scratch), removed after: two runs never share files.
  const own = path.join(deps.config.dataDir, 'review-installs', randomBytes(8).toString('hex'));
  try {
    await dropSchema(deps.database, schema);
    const applied = await withTimeout(
      applyPluginMigrations(deps.database, deps.log, pkg, deps.clock.now()),
      left(),
      'its migrations',
    ).catch((err) => fail('migrations', err));
    steps.push(`${applied.length} of ${migrationFiles(pkg).length} migration(s) applied`);
    if (!manifest.server) {
      steps.push('no server entry to register');
    } else {
      registration = new Registration(grantOf(manifest.id, rightsOf(manifest)));
      const host = createHostContext({
        manifestId: manifest.id,
        version: manifest.version,
        schema,
        database: deps.database,
        clock: deps.clock,
        log: deps.log,
        bus: new SubscriberRegistry(),
        providers: createProviders(deps.config.providerTimeoutMs),
        registration,
        readApis: { retrieveOrder: async () => null },
        config: () => ({}),
        stats: { eventErrors: 0 },
      });
      const ctx: PluginContext = {
        ...host,
        db: {
          query: async <T extends Record<string, unknown>>(text: string, params?: unknown[]) => {
            try {
              return await host.db.query<T>(text, params);
            } catch (err) {
              if (refusedOutsideSchema(err)) refusals.push((err as Error).message);
              throw err;
            }
          },
        },
        // The throwaway shop has no outbox: nothing reaches the marketplace's events.
        emit: async () => {},
      };
      const started = await startPluginProcess({
        plugin: {
          manifestId: manifest.id,
          rowId: `review_${pkg.sha256.slice(0, 16)}`,
          manifest: { ...manifest },
          version: manifest.version,
          grant: registration.grant,
        },
        folder: await extractPackage(own, pkg),
        entry: manifest.server,
        config: { ...deps.config, dataDir: own }, // its scratch folder is in there too
        log: deps.log,
        ctx,
        configValues: {},
        health: new HealthBook(deps.config.pluginSandbox, deps.clock).of('review'),
        registerTimeoutMs: left(),
        onExit: (reason) => {
          crashed = reason;
        },
      }).catch((err) => {
        if (refusals.length) throw new InstallFailed(`register wrote outside its schema: ${refusals[0]}`);
        return fail(err instanceof PluginStartError && err.phase === 'import' ? 'import' : 'register', err);
      });
      proc = started.proc;
      if (refusals.length) throw new InstallFailed(`register wrote outside its schema: ${refusals[0]}`);
      steps.push('registered');
      steps.push(...(await smoke(registration, proc, left, deps.config.pluginRouteTimeoutMs)));
      if (refusals.length) throw new InstallFailed(`its health route wrote outside its schema: ${refusals[0]}`);
      if (crashed) throw new InstallFailed(`the process ended: ${crashed}`);
      registration.state = 'disposed';
      await proc
        .request('unload', {}, Math.min(left(), 5_000), false)
        .catch((err) => fail('uninstall (its unload())', err));
    }
    await proc?.stop();
    await dropSchema(deps.database, schema);
    steps.push('uninstalled');
    return { name: 'install', ok: true, detail: `Installed in the sandbox: ${steps.join(', ')}` };
  } catch (err) {
    const why = err instanceof InstallFailed ? err.message : `failed: ${(err as Error).message}`;
    return { name: 'install', ok: false, detail: `Sandboxed test install: ${why}`.slice(0, 1_000) };
  } finally {
    if (registration) registration.state = 'disposed';
    await proc?.stop();
    await dropSchema(deps.database, schema).catch((err) =>
      deps.log.warn({ err, schema }, 'review test install: schema not dropped'),
    );
    await rm(own, { recursive: true, force: true });
  }
}

/**
 * Its health: `GET /health` (admin or store) when it registered one, which must answer below 500;
 * else a ping its process must answer. Its other routes are listed, not called: in a shop with no
 * configuration (no API keys) a route may fail that works in a configured one.
 */
async function smoke(reg: Registration, proc: PluginProcess, left: () => number, routeMs: number): Promise<string[]> {
  const routes = (['admin', 'store'] as const).flatMap((surface) =>
    reg[surface].list().map((r) => ({ ...r, url: `/${surface}/plugins/${reg.grant.manifestId}${r.path}` })),
  );
  const listed = routes.length ? `routes ${routes.map((r) => `${r.method} ${r.url}`).join(', ')}` : 'no routes';
  const health = routes.find((r) => r.method === 'GET' && r.path === '/health');
  if (!health) {
    await proc.request('ping', {}, Math.min(left(), routeMs), false).catch((err) => fail('health (a ping)', err));
    return [listed, 'answered a ping'];
  }
  const work = Promise.resolve().then(() =>
    health.handler({ method: 'GET', path: health.path, params: {}, query: {}, body: null, headers: {} }),
  );
  const status = await withTimeout(work, Math.min(left(), routeMs), `GET ${health.url}`).then(
    (value) => (value === undefined ? 204 : 200),
    (err) => {
      if (err instanceof PluginCallError && err.status && err.status >= 400 && err.status < 500) return err.status;
      return fail(`health GET ${health.url}`, err);
    },
  );
  return [listed, `GET ${health.url} answered ${status}`];
}

function fail(step: string, err: unknown): never {
  if (err instanceof InstallFailed) throw err;
  const message = err instanceof Error ? err.message : String(err);
  const hung = err instanceof PluginTimeoutError || /did not finish within/.test(message);
  throw new InstallFailed(`${step} ${hung ? 'did not finish in time' : 'failed'}: ${message}`);
}

/** The SQL guard's refusal, or PostgreSQL's (42501: the plugin's role has no right there). */
function refusedOutsideSchema(err: unknown): boolean {
  const e = err as { code?: unknown; cause?: { code?: unknown } };
  return e?.code === 'plugin_sql_refused' || e?.code === '42501' || e?.cause?.code === '42501';
}

/**
 * Other marketplace instances on the same PostgreSQL database wait for a test install of the same
 * plugin id (its schema is the same name): a session advisory lock on a connection held meanwhile.
 * PGlite is one process's (its lock file): the queue above is enough there.
 */
async function acrossInstances<T>(database: Database, schema: string, fn: () => Promise<T>): Promise<T> {
  if (database.raw.kind === 'pglite') return fn();
  const conn = await database.raw.pool.connect();
  const key = `review-install:${schema}`;
  let broken = false;
  try {
    await conn.query('select pg_advisory_lock(hashtext($1))', [key]);
    try {
      return await fn();
    } finally {
      await conn.query('select pg_advisory_unlock(hashtext($1))', [key]).catch(() => (broken = true));
    }
  } finally {
    conn.release(broken);
  }
}

/** The throwaway schema and the marketplace's bookkeeping of it; the role stays, as a shop's uninstall leaves it. */
async function dropSchema(database: Database, schema: string): Promise<void> {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new Error(`Unsafe plugin schema name: ${schema}`);
  await withRawTx(database, async (tx) => {
    await tx.exec(`drop schema if exists "${schema}" cascade`);
    await tx.query('delete from public.plugin_migrations where schema_name = $1', [schema]);
    await tx.query('delete from public.plugin_schemas where schema_name = $1', [schema]);
  });
}
