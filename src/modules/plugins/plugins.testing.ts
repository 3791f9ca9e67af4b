import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { expect } from 'vitest';
import { ADMIN, startTestApp, testConfig, type TestApp } from '../../../test/app.ts';
import { resetDatabase } from '../../../test/database.ts';
import { buildApp } from '../../app.ts';
import { bootstrap } from '../../bootstrap.ts';
import { FakeClock } from '../../platform/clock.ts';
import { openPglite, openPostgres, type Database } from '../../platform/db/database.ts';
import type { App } from '../../platform/http/types.ts';
import { packPackage } from '../../plugin-package/pack-package.ts';
import { createWorkers, type Workers } from '../../workers.ts';
import { MARKETPLACE_ENV, publish } from '../marketplace/marketplace.testing.ts';

/** How long a `beforeAll` may take to start a marketplace, a shop and an installed plugin while the rest of the suite runs. */
export const PLUGIN_SHOP_SETUP_MS = 180_000;

/** A free TCP port on 127.0.0.1 (the marketplace must know its PUBLIC_URL before it listens). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

let marketDb: Promise<Database> | undefined;

/** The marketplace's own database (a second one per test worker), emptied by each start. */
function marketplaceDatabase(): Promise<Database> {
  marketDb ??= (async () => {
    const url = process.env.DATABASE_URL;
    if (!url) return openPglite(null);
    const target = new URL(url);
    const name = `${target.pathname.slice(1) || 'test'}_w${process.env.VITEST_POOL_ID ?? '0'}_mkt`;
    const maintenance = new URL(url);
    maintenance.pathname = '/postgres';
    const admin = new pg.Client({ connectionString: maintenance.toString() });
    await admin.connect();
    try {
      await admin.query(`drop database if exists "${name}" with (force)`);
      await admin.query(`create database "${name}"`);
    } finally {
      await admin.end();
    }
    target.pathname = `/${name}`;
    return openPostgres(target.toString(), 5);
  })().then(async (db) => {
    await db.migrate();
    return db;
  });
  return marketDb;
}

export interface TestMarketplace {
  app: App;
  url: string;
  clock: FakeClock;
  database: Database;
  adminToken: string;
  /** Every request the marketplace received (method, path with query, headers, parsed body). */
  requests: { method: string; url: string; headers: Record<string, unknown>; body?: unknown }[];
  /** When set, every request is answered with this status (a marketplace in trouble). */
  failWith: number | null;
  /** Called after each download descriptor is served (e.g. to let the signed URL expire). */
  afterDescriptor: (() => void) | null;
  /** When set, rewrites each download descriptor before it is sent (a marketplace that lies). */
  rewriteDescriptor: ((d: Record<string, unknown>) => Record<string, unknown>) | null;
  /** Publishes as the operator; a version that failed a review check is approved over it (override). */
  publish(
    bytes: Buffer,
    fields?: Record<string, string>,
  ): Promise<{ marketplace_id: string; versions: { version: string }[] }>;
  close(): Promise<void>;
}

/** A real marketplace instance (SERVICE_ROLE=marketplace) listening on 127.0.0.1, on its own database. */
/** `env`: more of the marketplace's configuration (a payment provider). */
export async function startMarketplace(env: Record<string, string> = {}): Promise<TestMarketplace> {
  const database = await marketplaceDatabase();
  await resetDatabase(database);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const config = testConfig({
    ...MARKETPLACE_ENV,
    PUBLIC_URL: url,
    ENCRYPTION_KEY: 'marketplace-encryption-key-0123456789',
    ...env,
  });
  const clock = new FakeClock(new Date());
  const app = await buildApp({ database, config, clock, logger: false });
  const m: TestMarketplace = {
    app,
    url,
    clock,
    database,
    adminToken: '',
    requests: [],
    failWith: null,
    afterDescriptor: null,
    rewriteDescriptor: null,
    async publish(bytes, fields = {}) {
      const res = await publish({ inject: (o) => app.inject(o), adminToken: m.adminToken } as TestApp, bytes, fields);
      expect(res.statusCode, res.body).toBe(200);
      let item = res.json().item;
      // The shop-side tests serve broken plugins on purpose. The operator's upload that failed an
      // automatic check waits in review (marketplace/catalog/publish.ts): this operator lists it
      // anyway, acknowledging the failed checks, as a real one would have to do explicitly.
      for (const v of item.versions.filter((v: { status: string }) => v.status === 'in_review')) {
        const approved = await app.inject({
          method: 'POST',
          url: `/admin/marketplace/items/${item.id}/versions/${v.id}/approve`,
          headers: { authorization: `Bearer ${m.adminToken}` },
          payload: { override: true, reason: 'Served as uploaded: a shop-side test of a broken plugin' },
        });
        expect(approved.statusCode, approved.body).toBe(200);
        item = approved.json().item;
      }
      return item;
    },
    close: () => app.close(),
  };
  const entries = new WeakMap<object, TestMarketplace['requests'][number]>();
  app.addHook('onRequest', async (req, reply) => {
    const entry = { method: req.method, url: req.url, headers: { ...req.headers } };
    entries.set(req, entry);
    m.requests.push(entry);
    if (m.failWith)
      return reply.status(m.failWith).send({ type: 'unknown_error', message: 'marketplace is having a bad day' });
  });
  app.addHook('preHandler', async (req) => {
    const entry = entries.get(req);
    if (entry) entry.body = req.body;
  });
  app.addHook('onSend', async (req, reply, payload) => {
    if (!m.rewriteDescriptor || !req.url.startsWith('/store/marketplace/download/') || reply.statusCode !== 200)
      return payload;
    return JSON.stringify(m.rewriteDescriptor(JSON.parse(String(payload))));
  });
  app.addHook('onResponse', async (req) => {
    if (req.url.startsWith('/store/marketplace/download/')) m.afterDescriptor?.();
  });
  await bootstrap({ db: database.db, clock, log: app.log }, config);
  const login = await app.inject({ method: 'POST', url: '/auth/user/emailpass', payload: ADMIN });
  m.adminToken = login.json().token;
  await app.listen({ host: '127.0.0.1', port });
  return m;
}

/** Shop environment federated to `m`, with its own data folder (extracted plugins) and plugin folder. */
export function shopEnv(m: TestMarketplace | null, extra: Record<string, string> = {}): Record<string, string> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'emporium-shop-'));
  const pluginsDir = path.join(dataDir, 'local-plugins');
  mkdirSync(pluginsDir);
  return {
    DATA_DIR: dataDir,
    PLUGINS_DIR: pluginsDir,
    PLUGIN_ROUTE_TIMEOUT_MS: '500',
    ...(m ? { SERVICE_FEDERATION_URL: m.url, SERVICE_FEDERATION_PK: 'pk_test_tenant' } : {}),
    ...extra,
  };
}

/** A shop with its own data and plugin folders (`env`, for a second instance or a CLI), federated to `m` when given. */
export async function startPluginShop(
  m: TestMarketplace | null,
  extra: Record<string, string> = {},
): Promise<{ t: TestApp; env: Record<string, string> }> {
  const env = shopEnv(m, extra);
  return { t: await startTestApp({ env }), env };
}

/** A marketplace and a shop federated to it; the marketplace is closed again when the shop fails to start. */
export async function startMarketplaceAndShop(
  extra: Record<string, string> = {},
): Promise<{ m: TestMarketplace; t: TestApp; env: Record<string, string> }> {
  const m = await startMarketplace();
  try {
    return { m, ...(await startPluginShop(m, extra)) };
  } catch (err) {
    await m.close();
    throw err;
  }
}

export interface ShopInstance {
  app: App;
  workers: Workers;
  close(): Promise<void>;
}

/** Another shop instance on the same database as `t` (scale-out), without resetting anything. */
export async function startShopInstance(t: TestApp, env: Record<string, string>): Promise<ShopInstance> {
  const config = testConfig(env);
  const app = await buildApp({ database: t.database, config, clock: t.clock, logger: false });
  const workers = createWorkers({ database: t.database, clock: t.clock, log: app.log, config, plugins: app.plugins });
  return {
    app,
    workers,
    close: async () => {
      await app.plugins.stop();
      await app.close();
    },
  };
}

let seq = 0;
/** A manifest id no other test of this worker uses (plugin schemas outlive database resets). */
export function pluginSlug(base: string): string {
  return `${base}-${process.pid}-${++seq}`;
}

/** Packs a plugin from files given inline (manifest fields merged over a minimal integration). */
export async function packPlugin(
  manifest: Record<string, unknown>,
  files: Record<string, string> = {},
): Promise<Buffer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'emporium-plugin-'));
  const full = {
    vendor: 'tests',
    name: 'Test plugin',
    version: '1.0.0',
    type: 'integration',
    engine: '>=0.1.0 <1',
    ...manifest,
  };
  writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(full));
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), content);
  }
  return packPackage(dir);
}

/** Install through the API, wait for the background pipeline, return the final row. */
export async function installAndWait(
  t: TestApp,
  marketplaceId: string,
  version = '1.0.0',
  licenseKey: string | null = null,
) {
  const res = await t.admin('POST', '/admin/plugins/install', {
    marketplace_id: marketplaceId,
    version,
    license_key: licenseKey,
  });
  expect(res.statusCode, res.body).toBe(202);
  await t.app.plugins.settled();
  return (await t.admin('GET', `/admin/plugins/${res.json().plugin.id}`)).json().plugin;
}

/**
 * A server plugin that exercises the whole host API: a migration, a subscriber, admin and store
 * routes (including ones that throw, refuse and hang), its own events and its configuration.
 */
export const PROBE_FILES = {
  'migrations/0001_seen.sql': 'create table seen (order_id text primary key, event_id text not null);',
  'server/index.js': `
let loads = 0;
export default {
  register(ctx) {
    loads++;
    ctx.on('order.placed', async (e) => {
      await ctx.db.query('insert into seen (order_id, event_id) values ($1, $2) on conflict do nothing', [e.payload.id, e.id]);
    });
    ctx.routes.admin('GET', '/seen', async () => ({ seen: (await ctx.db.query('select order_id from seen order by order_id')).map((r) => r.order_id) }));
    ctx.routes.admin('GET', '/boom', () => { throw new Error('kaboom'); });
    ctx.routes.admin('GET', '/teapot', () => { throw Object.assign(new Error('short and stout'), { status: 418 }); });
    ctx.routes.admin('GET', '/missing/:what', (req) => { throw Object.assign(new Error('no ' + req.params.what), { status: 404 }); });
    ctx.routes.admin('GET', '/hang', () => new Promise(() => {}));
    ctx.routes.admin('GET', '/nothing', () => undefined);
    ctx.routes.admin('POST', '/emit', async (req) => { await ctx.emit('thing.done', { id: req.body.id }); return { emitted: req.body.id }; });
    ctx.routes.admin('GET', '/headers', (req) => ({ authorization: req.headers.authorization ?? null, cookie: req.headers.cookie ?? null, custom: req.headers['x-custom'] ?? null }));
    ctx.routes.admin('GET', '/whoami', () => ({ plugin: ctx.plugin, loads, version: ctx.plugin.version }));
    ctx.routes.store('GET', '/config', () => ({ config: { ...ctx.config }, loads }));
    ctx.routes.store('GET', '/hello/:name', (req) => ({ hello: req.params.name, q: req.query.q ?? null }));
  },
};`,
};

export const PROBE_CONFIG = [
  { key: 'token', label: 'API token', type: 'string', secret: true, required: true },
  { key: 'greeting', label: 'Greeting', type: 'string' },
  { key: 'limit', label: 'Limit', type: 'number' },
  { key: 'enabled', label: 'Enabled', type: 'boolean' },
];

/** Publishes the probe plugin under a fresh id; returns its marketplace id and manifest id. */
export async function publishProbe(
  m: TestMarketplace,
  manifest: Record<string, unknown> = {},
  files: Record<string, string> = {},
) {
  const id = pluginSlug('probe');
  const bytes = await packPlugin(
    {
      id,
      server: 'server/index.js',
      migrations: 'migrations',
      config: PROBE_CONFIG,
      events: ['order.placed'],
      ...manifest,
    },
    { ...PROBE_FILES, ...files },
  );
  const item = await m.publish(bytes);
  return { id, marketplaceId: item.marketplace_id, bytes };
}

/**
 * Waits for something another instance does on its own (a NOTIFY arriving on its connection):
 * checks, lets that instance's background work finish, checks again, for up to 10 s.
 */
export async function eventually(instance: ShopInstance, check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 400; i++) {
    await instance.app.plugins.settled();
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('condition not reached within 10 s');
}
