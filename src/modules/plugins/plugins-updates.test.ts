import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, closeAll } from '../../../test/app.ts';
import { rows } from '../../platform/db/database.ts';
import {
  freePort,
  installAndWait,
  packPlugin,
  PROBE_CONFIG,
  PROBE_FILES,
  pluginSlug,
  shopEnv,
  startShopInstance,
  type TestMarketplace,
  startMarketplaceAndShop,
} from './plugins.testing.ts';
import { schemaNameOf } from './raw-db.ts';
import { notifyPluginUpdates } from './updates.ts';

let m: TestMarketplace;
let t: TestApp;
let env: Record<string, string>;
beforeAll(async () => {
  ({ m, t, env } = await startMarketplaceAndShop());
});
afterAll(() => closeAll(t, m));

/** The probe at a version: later versions add a migration; `broken` throws in register. */
function probeVersion(id: string, version: string, opts: { broken?: boolean; migration2?: boolean } = {}) {
  const files: Record<string, string> = { ...PROBE_FILES };
  if (opts.migration2) files['migrations/0002_note.sql'] = "alter table seen add column note text not null default '';";
  if (opts.broken) files['server/index.js'] = 'export default { register() { throw new Error("1.2.0 is broken"); } };';
  return packPlugin({ id, version, server: 'server/index.js', migrations: 'migrations', config: PROBE_CONFIG }, files);
}

const whoami = async (id: string) => (await t.admin('GET', `/admin/plugins/${id}/whoami`)).json();

describe('updates', () => {
  it('updates through the verified pipeline, runs new migrations, swaps the code, emits plugin.updated', async () => {
    const id = pluginSlug('upd');
    const item = await m.publish(await probeVersion(id, '1.0.0'));
    const installed = await installAndWait(t, item.marketplace_id);
    expect((await whoami(id)).version).toBe('1.0.0');
    await m.publish(await probeVersion(id, '1.1.0', { migration2: true }), {
      changelog_url: 'https://tests.example/changes/1.1.0',
    });

    const res = await t.admin('POST', `/admin/plugins/${installed.id}/update`, { version: '1.1.0' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().plugin).toMatchObject({
      id: installed.id,
      status: 'updating',
      version: '1.0.0',
      target_version: '1.1.0',
    });
    await t.app.plugins.settled();
    const updated = (await t.admin('GET', `/admin/plugins/${installed.id}`)).json().plugin;
    expect(updated).toMatchObject({ status: 'installed', version: '1.1.0', target_version: null, error: null });
    expect(updated.manifest.version).toBe('1.1.0');
    expect(await whoami(id)).toMatchObject({ version: '1.1.0', loads: 1 }); // a fresh module instance
    const applied = await rows<{ filename: string }>(
      t.database.db,
      sql`select filename from plugin_migrations where schema_name = ${schemaNameOf(id)} order by filename`,
    );
    expect(applied.map((r) => r.filename)).toEqual(['0001_seen.sql', '0002_note.sql']);
    const events = await rows<{ payload: { id: string; version: string } }>(
      t.database.db,
      sql`select payload from outbox where name = 'plugin.updated' and payload->>'id' = ${installed.id}`,
    );
    expect(events.map((e) => e.payload.version)).toEqual(['1.1.0']);
    expect(t.app.plugins.host.bus.matching('order.placed').filter((s) => s.owner === id)).toHaveLength(1); // the old subscriber is gone

    // A broken 1.2.0: the update fails, 1.1.0 keeps running, the row says why.
    await m.publish(await probeVersion(id, '1.2.0', { broken: true, migration2: true }));
    expect((await t.admin('POST', `/admin/plugins/${installed.id}/update`, { version: '1.2.0' })).statusCode).toBe(200);
    await t.app.plugins.settled();
    const rolledBack = (await t.admin('GET', `/admin/plugins/${installed.id}`)).json().plugin;
    expect(rolledBack).toMatchObject({
      status: 'installed',
      version: '1.1.0',
      target_version: null,
      error: 'Update to 1.2.0 failed: Plugin threw while loading: 1.2.0 is broken',
    });
    expect(await whoami(id)).toMatchObject({ version: '1.1.0' });
    expect(t.app.plugins.host.bus.matching('order.placed').filter((s) => s.owner === id)).toHaveLength(1);

    // An update to a version the marketplace does not have fails the same way.
    await t.admin('POST', `/admin/plugins/${installed.id}/update`, { version: '9.0.0' });
    await t.app.plugins.settled();
    expect((await t.admin('GET', `/admin/plugins/${installed.id}`)).json().plugin).toMatchObject({
      status: 'installed',
      version: '1.1.0',
      error: `Update to 9.0.0 failed: ${item.marketplace_id}@9.0.0 was not found in the marketplace`,
    });
  });

  it('refuses updates that are not newer, of plugins that are not installed, and bad bodies', async () => {
    const id = pluginSlug('upd');
    const item = await m.publish(await probeVersion(id, '1.1.0'));
    const installed = await installAndWait(t, item.marketplace_id, '1.1.0');
    const same = await t.admin('POST', `/admin/plugins/${installed.id}/update`, { version: '1.1.0' });
    expect(same.statusCode).toBe(400);
    expect(same.json().message).toBe('Invalid request: Version 1.1.0 is not newer than the installed 1.1.0');
    expect((await t.admin('POST', `/admin/plugins/${installed.id}/update`, { version: '1.0.9' })).statusCode).toBe(400);
    expect((await t.admin('POST', `/admin/plugins/${installed.id}/update`, { version: 'next' })).statusCode).toBe(400);
    expect(
      (await t.admin('POST', `/admin/plugins/${installed.id}/update`, { version: '2.0.0', force: true })).statusCode,
    ).toBe(400);
    expect((await t.admin('POST', `/admin/plugins/${installed.id}/update`, {})).statusCode).toBe(400);
    expect((await t.admin('POST', '/admin/plugins/plg_missing/update', { version: '2.0.0' })).statusCode).toBe(404);
    expect(
      (await t.admin('POST', `/admin/plugins/${installed.id}/update`, { version: '2.0.0' }, { token: t.viewerToken }))
        .statusCode,
    ).toBe(403);
    const failed = await installAndWait(t, '@tests/not-there', '1.0.0');
    const conflict = await t.admin('POST', `/admin/plugins/${failed.id}/update`, { version: '2.0.0' });
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json().message).toBe('Plugin @tests/not-there is failed; only an installed plugin can be updated');
  });

  it('lists newer marketplace versions and notifies once per version', async () => {
    const id = pluginSlug('news');
    const item = await m.publish(await probeVersion(id, '1.0.0'));
    const installed = await installAndWait(t, item.marketplace_id);
    const local = pluginSlug('local');
    writeFileSync(path.join(env.PLUGINS_DIR, `${local}.tgz`), await probeVersion(local, '1.0.0'));
    expect((await installAndWait(t, `@tests/${local}`)).source).toBe('local');
    await m.publish(await probeVersion(local, '5.0.0')); // local plugins are not checked against the marketplace
    await m.publish(await probeVersion(id, '1.3.0'), { changelog_url: 'https://tests.example/1.3.0' });

    const res = await t.admin('GET', '/admin/plugins/check-updates');
    expect(res.statusCode, res.body).toBe(200);
    const mine = res.json().updates.filter((u: { id: string }) => u.id === installed.id);
    expect(mine).toEqual([
      { id: installed.id, current: '1.0.0', latest: '1.3.0', changelog_url: 'https://tests.example/1.3.0' },
    ]);
    expect(res.json().updates.map((u: { current: string }) => u.current)).not.toContain('5.0.0');
    const query = m.requests.filter((r) => r.url.startsWith('/store/marketplace/updates')).at(-1)!;
    const versions = JSON.parse(new URL(query.url, m.url).searchParams.get('versions')!);
    expect(versions[item.marketplace_id]).toBe('1.0.0');
    expect(Object.keys(versions)).not.toContain(`@tests/${local}`);

    const notifications = async () =>
      (await t.admin('GET', '/admin/notifications?type=plugin.update_available&limit=100'))
        .json()
        .notifications.filter((n: { data: { plugin_id: string } }) => n.data.plugin_id === installed.id);
    await notifyPluginUpdates(t.ctx, t.config);
    await notifyPluginUpdates(t.ctx, t.config);
    const once = await notifications();
    expect(once).toHaveLength(1);
    expect(once[0]).toMatchObject({
      title: 'Update available: Test plugin 1.3.0',
      data: { marketplace_id: item.marketplace_id, current: '1.0.0', latest: '1.3.0' },
    });
    await m.publish(await probeVersion(id, '1.4.0'));
    await notifyPluginUpdates(t.ctx, t.config);
    expect((await notifications()).map((n: { data: { latest: string } }) => n.data.latest).sort()).toEqual([
      '1.3.0',
      '1.4.0',
    ]);
  });
});

describe('marketplace view and outages', () => {
  it('merges the remote feed with the install state, sending the publishable key', async () => {
    const id = pluginSlug('feed');
    const item = await m.publish(await probeVersion(id, '1.0.0'));
    const other = pluginSlug('feedother');
    await m.publish(await probeVersion(other, '2.0.0'));
    const plugin = await installAndWait(t, item.marketplace_id);
    const res = await t.admin('GET', `/admin/marketplace/feed?search=${id}`);
    expect(res.statusCode, res.body).toBe(200);
    const feed = res.json();
    expect(feed).toMatchObject({ count: 1, limit: 20, offset: 0 });
    expect(feed.products[0]).toMatchObject({
      marketplace_id: item.marketplace_id,
      version: '1.0.0',
      price_eur: 0,
      source: 'federation',
      plugin_id: plugin.id,
      installed_version: '1.0.0',
      status: 'installed',
      download_url: `/store/marketplace/download/${item.marketplace_id}/1.0.0`,
    });
    const notInstalled = (await t.admin('GET', `/admin/marketplace/feed?search=${other}&per_page=5&page=1`)).json();
    expect(notInstalled.products[0]).toMatchObject({
      version: '2.0.0',
      plugin_id: null,
      installed_version: null,
      status: null,
    });
    const call = m.requests.filter((r) => r.url.startsWith('/store/marketplace/feed')).at(-1)!;
    expect(call.headers['x-publishable-api-key']).toBe('pk_test_tenant');
    expect(Object.fromEntries(new URL(call.url, m.url).searchParams)).toEqual({
      search: other,
      page: '1',
      per_page: '5',
      // the per-marketplace instance token: places the shop in or out of staged rollouts
      instance_id: expect.stringMatching(/.+/),
    });
    expect((await t.admin('GET', '/admin/marketplace/feed?per_page=-1')).statusCode).toBe(400);
    expect((await t.inject({ method: 'GET', url: '/admin/marketplace/feed' })).statusCode).toBe(401);
  });

  it('answers 502 while the marketplace is down, and the shop keeps working', async () => {
    m.failWith = 503;
    try {
      const feed = await t.admin('GET', '/admin/marketplace/feed');
      expect(feed.statusCode).toBe(502);
      expect(feed.json()).toEqual({
        type: 'bad_gateway',
        code: 'federation_upstream_failed',
        message: 'Marketplace unreachable: /store/marketplace/feed answered 503',
      });
      const updates = await t.admin('GET', '/admin/plugins/check-updates');
      expect(updates.statusCode).toBe(502);
      const failed = await installAndWait(t, '@tests/during-outage');
      expect(failed).toMatchObject({
        status: 'failed',
        error: 'Marketplace unreachable: /store/marketplace/download/@tests/during-outage/1.0.0 answered 503',
      });
      expect((await t.admin('GET', '/admin/plugins')).statusCode).toBe(200);
      expect((await t.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
    } finally {
      m.failWith = null;
    }

    const closed = await startShopInstance(t, {
      ...env,
      SERVICE_FEDERATION_URL: `http://127.0.0.1:${await freePort()}`,
    });
    try {
      const res = await closed.app.inject({
        method: 'GET',
        url: '/admin/marketplace/feed',
        headers: { authorization: `Bearer ${t.adminToken}` },
      });
      expect(res.statusCode).toBe(502);
      expect(res.json()).toEqual({
        type: 'bad_gateway',
        code: 'federation_upstream_failed',
        message: 'Marketplace unreachable: ECONNREFUSED',
      });
    } finally {
      await closed.close();
    }
  });

  it('one item with its description and versions, from the marketplace or the plugin folder; unknown is 404', async () => {
    const id = pluginSlug('item');
    const item = await m.publish(await probeVersion(id, '1.0.0'));
    await m.publish(await probeVersion(id, '1.1.0'));
    const res = await t.admin('GET', `/admin/marketplace/feed/${item.marketplace_id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().product).toMatchObject({
      marketplace_id: item.marketplace_id,
      version: '1.1.0',
      source: 'federation',
      status: null,
    });
    expect(res.json().product.versions.map((v: { version: string }) => v.version)).toEqual(['1.1.0', '1.0.0']);
    expect((await t.admin('GET', '/admin/marketplace/feed/@tests/no-such-item')).statusCode).toBe(404);
    expect((await t.admin('GET', '/admin/marketplace/feed/not-an-id')).statusCode).toBe(400);

    const local = shopEnv(null);
    const a = pluginSlug('locitem');
    writeFileSync(path.join(local.PLUGINS_DIR, `${a}-1.tgz`), await probeVersion(a, '1.0.0'));
    writeFileSync(path.join(local.PLUGINS_DIR, `${a}-2.tgz`), await probeVersion(a, '1.2.0'));
    const shop = await startShopInstance(t, local);
    try {
      const get = (url: string) =>
        shop.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${t.adminToken}` } });
      const one = (await get(`/admin/marketplace/feed/@tests/${a}`)).json().product;
      expect(one).toMatchObject({ marketplace_id: `@tests/${a}`, version: '1.2.0', source: 'local' });
      expect(one.versions.map((v: { version: string }) => v.version)).toEqual(['1.2.0', '1.0.0']);
      expect((await get('/admin/marketplace/feed/@tests/nothing-here')).statusCode).toBe(404);
    } finally {
      await shop.close();
    }
  });

  it('lists the local plugin folder when the shop is not federated', async () => {
    const local = shopEnv(null);
    const a = pluginSlug('loc');
    writeFileSync(path.join(local.PLUGINS_DIR, `${a}-1.tgz`), await probeVersion(a, '1.0.0'));
    writeFileSync(path.join(local.PLUGINS_DIR, `${a}-2.tgz`), await probeVersion(a, '1.2.0'));
    writeFileSync(path.join(local.PLUGINS_DIR, 'garbage.tgz'), 'not a package');
    const shop = await startShopInstance(t, local);
    const get = (url: string) =>
      shop.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${t.adminToken}` } });
    try {
      const feed = (await get(`/admin/marketplace/feed?search=${a}`)).json();
      expect(feed).toMatchObject({ count: 1, limit: 20, offset: 0 });
      expect(feed.products[0]).toMatchObject({
        marketplace_id: `@tests/${a}`,
        version: '1.2.0',
        price_eur: 0,
        source: 'local',
        download_url: null,
        status: null,
        plugin_id: null,
      });
      expect(
        (await get('/admin/marketplace/feed?type=payment-provider'))
          .json()
          .products.map((p: { marketplace_id: string }) => p.marketplace_id),
      ).not.toContain(`@tests/${a}`);
      const install = await shop.app.inject({
        method: 'POST',
        url: '/admin/plugins/install',
        headers: { authorization: `Bearer ${t.adminToken}` },
        payload: { marketplace_id: `@tests/${a}`, version: '1.2.0', license_key: null },
      });
      expect(install.statusCode).toBe(202);
      await shop.app.plugins.settled();
      expect((await get(`/admin/marketplace/feed?search=${a}`)).json().products[0]).toMatchObject({
        status: 'installed',
        installed_version: '1.2.0',
      });
      expect((await get('/admin/plugins/check-updates')).json()).toEqual({ updates: [] });
    } finally {
      await shop.close();
    }
  });
});
