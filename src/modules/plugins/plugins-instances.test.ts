import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, closeAll } from '../../../test/app.ts';
import { newId } from '../../platform/ids.ts';
import { plugins } from './tables.ts';
import {
  eventually,
  installAndWait,
  packPlugin,
  pluginSlug,
  publishProbe,
  shopEnv,
  startShopInstance,
  type ShopInstance,
  type TestMarketplace,
  startMarketplaceAndShop,
} from './plugins.testing.ts';

let m: TestMarketplace;
let t: TestApp;
let env: Record<string, string>;
const instances: ShopInstance[] = [];
beforeAll(async () => {
  ({ m, t, env } = await startMarketplaceAndShop());
});
afterAll(() => closeAll(...instances, t, m));

/** Another instance of the same shop (same database and secrets, its own disk), started like main.ts starts one. */
async function instance(opts: { start?: boolean } = {}): Promise<ShopInstance & { env: Record<string, string> }> {
  const own = { ...env, DATA_DIR: shopEnv(m).DATA_DIR };
  const i = await startShopInstance(t, own);
  instances.push(i);
  if (opts.start !== false) await i.app.plugins.start();
  return { ...i, env: own };
}

const call = (i: ShopInstance, method: 'GET' | 'POST', url: string, payload?: unknown) =>
  i.app.inject({
    method,
    url,
    payload: payload as never,
    headers: url.startsWith('/store')
      ? { 'x-publishable-api-key': t.publishableKey }
      : { authorization: `Bearer ${t.adminToken}` },
  });

/** Inserts a plugin row as a crashed instance would have left it. */
async function strandedRow(
  fields: Partial<typeof plugins.$inferInsert> & { manifest_id: string; marketplace_id: string },
) {
  const now = t.clock.now();
  const id = newId('plg');
  await t.database.db.insert(plugins).values({
    id,
    vendor: 'tests',
    version: '1.0.0',
    status: 'installing',
    attempts: 1,
    lease_until: new Date(now.getTime() - 1000),
    created_at: now,
    updated_at: now,
    ...fields,
  });
  return id;
}

describe('several instances on one database', () => {
  it('loads, reconfigures and unloads on every instance through NOTIFY', async () => {
    const b = await instance();
    const { id, marketplaceId } = await publishProbe(m);
    const plugin = await installAndWait(t, marketplaceId);
    expect(plugin.status).toBe('installed');
    await eventually(b, async () => (await call(b, 'GET', `/admin/plugins/${id}/seen`)).statusCode === 200);
    expect(readdirSync(path.join(b.env.DATA_DIR, 'plugins', id))).toEqual([
      expect.stringMatching(/^1\.0\.0-[0-9a-f]{64}$/),
    ]);

    await t.admin('POST', `/admin/plugins/${plugin.id}/configure`, {
      config: { token: 'shared-secret-4242', greeting: 'from A' },
    });
    await eventually(
      b,
      async () => (await call(b, 'GET', `/store/plugins/${id}/config`)).json().config?.greeting === 'from A',
    );
    expect((await call(b, 'GET', `/store/plugins/${id}/config`)).json().config.token).toBe('shared-secret-4242');

    expect((await t.admin('DELETE', `/admin/plugins/${plugin.id}`)).statusCode).toBe(200);
    await eventually(b, async () => (await call(b, 'GET', `/admin/plugins/${id}/seen`)).statusCode === 404);
    await b.app.plugins.settled();
    expect(existsSync(path.join(b.env.DATA_DIR, 'plugins', id))).toBe(false);
  });

  it('catches up by the periodic reconcile when it missed the notice', async () => {
    const c = await instance({ start: false }); // not listening
    const { id, marketplaceId } = await publishProbe(m);
    await installAndWait(t, marketplaceId);
    expect((await call(c, 'GET', `/admin/plugins/${id}/seen`)).statusCode).toBe(404);
    await c.app.plugins.reconcile();
    expect((await call(c, 'GET', `/admin/plugins/${id}/seen`)).statusCode).toBe(200);
  });

  it('loads every installed plugin from the database at start (nothing on its disk yet)', async () => {
    const { id, marketplaceId } = await publishProbe(m);
    await installAndWait(t, marketplaceId);
    const d = await instance();
    expect((await call(d, 'GET', `/admin/plugins/${id}/whoami`)).json()).toMatchObject({
      plugin: { id, version: '1.0.0' },
    });
  });

  it('fails a plugin that throws when an instance loads it at start', async () => {
    const id = pluginSlug('once');
    // Counted in its own table: each load runs in a process of its own, so no memory is shared.
    const server = `export default { async register(ctx) { await ctx.db.query('insert into loads default values'); const [{ n }] = await ctx.db.query('select count(*)::int as n from loads'); if (n > 1) throw new Error('refuses a second load'); } };`;
    const item = await m.publish(
      await packPlugin(
        { id, server: 'server/index.js', migrations: 'migrations' },
        {
          'server/index.js': server,
          'migrations/0001_loads.sql': 'create table loads (at timestamptz default now());',
        },
      ),
    );
    const plugin = await installAndWait(t, item.marketplace_id);
    expect(plugin.status).toBe('installed');
    await instance();
    expect((await t.admin('GET', `/admin/plugins/${plugin.id}`)).json().plugin).toMatchObject({
      status: 'failed',
      error: 'Plugin threw while loading: refuses a second load',
    });
  });
});

describe('crash safety', () => {
  it('resumes an install left in installing by a crash, on the next start', async () => {
    const { id, marketplaceId } = await publishProbe(m);
    const rowId = await strandedRow({ manifest_id: id, marketplace_id: marketplaceId });
    const e = await instance();
    await e.app.plugins.settled();
    expect((await t.admin('GET', `/admin/plugins/${rowId}`)).json().plugin).toMatchObject({
      status: 'installed',
      error: null,
    });
    expect((await call(e, 'GET', `/admin/plugins/${id}/seen`)).statusCode).toBe(200);
  });

  it('resumes an interrupted update, and gives up after three interrupted attempts', async () => {
    const { id, marketplaceId, bytes } = await publishProbe(m);
    expect(bytes.length).toBeGreaterThan(0);
    const installed = await installAndWait(t, marketplaceId);
    await m.publish(
      await packPlugin(
        { id, version: '1.1.0', server: 'server/index.js', migrations: 'migrations' },
        (await import('./plugins.testing.ts')).PROBE_FILES,
      ),
    );
    await t.database.db
      .update(plugins)
      .set({ status: 'updating', target_version: '1.1.0', attempts: 1, lease_until: null })
      .where(eq(plugins.id, installed.id));
    const doomed = await publishProbe(m);
    const doomedId = await strandedRow({ manifest_id: doomed.id, marketplace_id: doomed.marketplaceId, attempts: 3 });

    const f = await instance();
    await f.app.plugins.settled();
    expect((await t.admin('GET', `/admin/plugins/${installed.id}`)).json().plugin).toMatchObject({
      status: 'installed',
      version: '1.1.0',
      target_version: null,
    });
    expect((await call(f, 'GET', `/admin/plugins/${id}/whoami`)).json().version).toBe('1.1.0');
    expect((await t.admin('GET', `/admin/plugins/${doomedId}`)).json().plugin).toMatchObject({
      status: 'failed',
      error: 'Interrupted 3 times (the process stopped while installing); giving up',
    });
  });

  it('leaves a pipeline another instance holds alone until its lease expires', async () => {
    const { marketplaceId, id } = await publishProbe(m);
    const rowId = await strandedRow({
      manifest_id: id,
      marketplace_id: marketplaceId,
      lease_until: new Date(t.clock.now().getTime() + 60_000),
    });
    await t.app.plugins.resumePipelines({ force: false });
    await t.app.plugins.settled();
    expect((await t.admin('GET', `/admin/plugins/${rowId}`)).json().plugin.status).toBe('installing');
    t.clock.advance(61_000);
    await t.app.plugins.resumePipelines({ force: false });
    await t.app.plugins.settled();
    expect((await t.admin('GET', `/admin/plugins/${rowId}`)).json().plugin.status).toBe('installed');
  });
});
