import { copyFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, closeAll } from '../../../test/app.ts';
import { inTx } from '../../platform/context.ts';
import { rows } from '../../platform/db/database.ts';
import { packExample } from '../marketplace/marketplace.testing.ts';
import { schemaNameOf } from './raw-db.ts';
import {
  installAndWait,
  packPlugin,
  pluginSlug,
  publishProbe,
  type TestMarketplace,
  startMarketplaceAndShop,
} from './plugins.testing.ts';
import { emitLoose } from '../../../test/events.ts';

let m: TestMarketplace;
let t: TestApp;
let env: Record<string, string>;
beforeAll(async () => {
  ({ m, t, env } = await startMarketplaceAndShop());
});
afterAll(() => closeAll(t, m));

const placeOrder = async (id: string) => {
  await inTx(t.ctx, (tctx) => emitLoose(tctx, 'order.placed', { id, email: 'buyer@example.com' }));
  await t.workers.dispatcher.drain();
};
const outbox = (name: string) =>
  rows<{ name: string; payload: Record<string, unknown> }>(
    t.database.db,
    sql`select name, payload from outbox where name = ${name} order by id`,
  );

describe('install, run, uninstall, reinstall', () => {
  it('installs a verified marketplace plugin without a restart and runs its routes and subscribers', async () => {
    const { id, marketplaceId } = await publishProbe(m);
    const res = await t.admin('POST', '/admin/plugins/install', {
      marketplace_id: marketplaceId,
      version: '1.0.0',
      license_key: null,
    });
    expect(res.statusCode, res.body).toBe(202);
    const accepted = res.json().plugin;
    expect(accepted).toMatchObject({
      id: expect.stringMatching(/^plg_/),
      object: 'plugin',
      manifest_id: id,
      marketplace_id: marketplaceId,
      vendor: 'tests',
      version: '1.0.0',
      status: 'installing',
      error: null,
      licensed: false,
    });

    await t.app.plugins.settled();
    const got = await t.admin('GET', `/admin/plugins/${accepted.id}`);
    expect(got.statusCode).toBe(200);
    const plugin = got.json().plugin;
    expect(plugin).toMatchObject({
      status: 'installed',
      error: null,
      source: 'federation',
      name: 'Test plugin',
      type: 'integration',
      admin_bundle: null,
      target_version: null,
    });
    expect(plugin.manifest).toMatchObject({ id, version: '1.0.0' });
    expect(plugin.config_fields.map((f: { key: string }) => f.key)).toEqual(['token', 'greeting', 'limit', 'enabled']);
    expect(new Date(plugin.installed_at).getTime()).toBe(t.clock.now().getTime());

    expect((await t.admin('GET', `/admin/plugins/${id}/seen`)).json()).toEqual({ seen: [] });
    await placeOrder(`order_${id}`);
    expect((await t.admin('GET', `/admin/plugins/${id}/seen`)).json()).toEqual({ seen: [`order_${id}`] });
    const hello = await t.store('GET', `/store/plugins/${id}/hello/world?q=1`);
    expect(hello.statusCode).toBe(200);
    expect(hello.json()).toEqual({ hello: 'world', q: '1' });

    const installed = await outbox('plugin.installed');
    expect(installed.at(-1)!.payload).toMatchObject({
      id: accepted.id,
      status: 'installed',
      marketplace_id: marketplaceId,
    });
    const list = await t.admin('GET', '/admin/plugins');
    expect(list.json().plugins.map((p: { id: string }) => p.id)).toContain(accepted.id);
  });

  it('uninstalls: routes and subscribers leave at once, the row is gone, the tables stay; reinstall skips applied migrations', async () => {
    const { id, marketplaceId } = await publishProbe(m);
    const first = await installAndWait(t, marketplaceId);
    expect(first.status).toBe('installed');
    await placeOrder(`order_a_${id}`);
    const schema = schemaNameOf(id);
    const migrations = await rows<{ filename: string; applied_at: Date }>(
      t.database.db,
      sql`select filename, applied_at from plugin_migrations where schema_name = ${schema}`,
    );
    expect(migrations.map((r) => r.filename)).toEqual(['0001_seen.sql']);

    const del = await t.admin('DELETE', `/admin/plugins/${first.id}`);
    expect(del.statusCode, del.body).toBe(200);
    expect(del.json()).toEqual({ id: first.id, object: 'plugin', deleted: true });
    expect((await t.admin('GET', `/admin/plugins/${first.id}`)).statusCode).toBe(404);
    expect((await t.admin('DELETE', `/admin/plugins/${first.id}`)).statusCode).toBe(404);
    const gone = await t.admin('GET', `/admin/plugins/${id}/seen`);
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({
      type: 'not_found',
      code: 'route_not_found',
      message: `Route GET /admin/plugins/${id}/seen not found`,
    });
    expect((await t.store('GET', `/store/plugins/${id}/hello/x`)).statusCode).toBe(404);
    expect((await outbox('plugin.uninstalled')).at(-1)!.payload).toMatchObject({
      id: first.id,
      marketplace_id: marketplaceId,
    });

    await placeOrder(`order_b_${id}`); // nobody listens any more
    const seen = await rows<{ order_id: string }>(
      t.database.db,
      sql.raw(`select order_id from "${schema}".seen order by order_id`),
    );
    expect(seen.map((r) => r.order_id)).toEqual([`order_a_${id}`]); // the table and its data stay

    // The migration is not idempotent (plain create table): a rerun would fail the reinstall.
    const again = await installAndWait(t, marketplaceId);
    expect(again).toMatchObject({ status: 'installed', error: null });
    expect(again.id).not.toBe(first.id);
    const after = await rows<{ filename: string; applied_at: Date }>(
      t.database.db,
      sql`select filename, applied_at from plugin_migrations where schema_name = ${schema}`,
    );
    expect(after).toEqual(migrations);
    expect((await t.admin('GET', `/admin/plugins/${id}/seen`)).json()).toEqual({ seen: [`order_a_${id}`] });
  });

  it('refuses a second install of the same item or manifest id (409) and retries a failed one in place', async () => {
    const { id, marketplaceId } = await publishProbe(m);
    const installed = await installAndWait(t, marketplaceId);
    const twice = await t.admin('POST', '/admin/plugins/install', {
      marketplace_id: marketplaceId,
      version: '1.0.0',
      license_key: null,
    });
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toEqual({
      type: 'conflict',
      code: 'plugin_already_installed',
      message: `Plugin ${marketplaceId} is already installed (status: installed); uninstall it first or update it`,
    });
    const otherVendor = await t.admin('POST', '/admin/plugins/install', {
      marketplace_id: `@other/${id}`,
      version: '1.0.0',
      license_key: null,
    });
    expect(otherVendor.statusCode).toBe(409);
    expect(otherVendor.json().message).toContain(`already uses the manifest id '${id}'`);

    const missing = await installAndWait(t, marketplaceId.replace('probe', 'nothing'), '1.0.0');
    expect(missing).toMatchObject({ status: 'failed', manifest: null });
    expect(missing.error).toContain('was not found in the marketplace');
    const retry = await installAndWait(t, missing.marketplace_id, '2.0.0');
    expect(retry).toMatchObject({ id: missing.id, status: 'failed', version: '2.0.0' });
    expect((await t.admin('GET', `/admin/plugins/${installed.id}`)).json().plugin.status).toBe('installed');
  });

  it('fails a plugin that throws at load, leaving nothing registered', async () => {
    const id = pluginSlug('thrower');
    const server = `export default { register(ctx) { ctx.routes.admin('GET', '/half', () => ({})); ctx.on('order.placed', () => {}); throw new Error('cannot start: no coffee'); } };`;
    const item = await m.publish(await packPlugin({ id, server: 'server/index.js' }, { 'server/index.js': server }));
    const plugin = await installAndWait(t, item.marketplace_id);
    expect(plugin.status).toBe('failed');
    expect(plugin.error).toBe('Plugin threw while loading: cannot start: no coffee');
    expect((await t.admin('GET', `/admin/plugins/${id}/half`)).statusCode).toBe(404);
    expect(t.app.plugins.host.bus.matching('order.placed').filter((s) => s.owner === id)).toEqual([]);
    expect((await t.admin('DELETE', `/admin/plugins/${plugin.id}`)).statusCode).toBe(200);
  });

  it('fails a plugin that claims a reserved admin path or registers a malformed route', async () => {
    for (const [reg, error] of [
      [
        "ctx.routes.admin('POST', '/configure', () => ({}))",
        'Plugin threw while loading: ctx.routes.admin: "/configure" is reserved by the shop (reserved: configure, update, admin-bundle)',
      ],
      [
        "ctx.routes.store('HEAD', '/x', () => ({}))",
        'Plugin threw while loading: Unsupported method "HEAD"; use one of GET, POST, PUT, PATCH, DELETE',
      ],
      [
        "ctx.routes.store('GET', 'x', () => ({}))",
        'Plugin threw while loading: Route path must start with "/" and hold no ?, #, * or \\, got "x"',
      ],
      [
        "ctx.on('Order Placed', () => {})",
        'Plugin threw while loading: ctx.on: "Order Placed" is not an event name or pattern (order.placed, order.*, *)',
      ],
    ]) {
      const item = await m.publish(
        await packPlugin(
          { id: pluginSlug('reserved'), server: 's.js' },
          { 's.js': `export default { register(ctx) { ${reg}; } };` },
        ),
      );
      const plugin = await installAndWait(t, item.marketplace_id);
      expect(plugin).toMatchObject({ status: 'failed', error });
    }
  });

  it('fails a plugin whose engine range excludes this Emporium, and one without register()', async () => {
    const old = await m.publish(
      await packPlugin(
        { id: pluginSlug('ancient'), engine: '<0.1.0', server: 's.js' },
        { 's.js': 'export default { register() {} };' },
      ),
    );
    const a = await installAndWait(t, old.marketplace_id);
    expect(a.status).toBe('failed');
    expect(a.error).toMatch(/^Plugin requires Emporium <0\.1\.0; this is \d+\.\d+\.\d+$/);
    const bad = await m.publish(
      await packPlugin({ id: pluginSlug('noreg'), server: 's.js' }, { 's.js': 'export default { start() {} };' }),
    );
    const b = await installAndWait(t, bad.marketplace_id);
    expect(b.status).toBe('failed');
    expect(b.error).toBe('Server entry s.js must default-export an object with a register(ctx) function');
  });

  it('installs from the local plugin folder (a .tgz or a plugin folder), unsigned, trusted as the operator put it there', async () => {
    const id = pluginSlug('local');
    writeFileSync(
      path.join(env.PLUGINS_DIR, `${id}.tgz`),
      await packPlugin(
        { id, server: 'server/index.js', migrations: 'migrations' },
        await import('./plugins.testing.ts').then((x) => x.PROBE_FILES),
      ),
    );
    const plugin = await installAndWait(t, `@tests/${id}`);
    expect(plugin).toMatchObject({ status: 'installed', source: 'local' });
    expect((await t.admin('GET', `/admin/plugins/${id}/seen`)).statusCode).toBe(200);

    const widget = pluginSlug('widget');
    const tgz = await packExample('hello-widget', { id: widget });
    const file = path.join(env.PLUGINS_DIR, `${widget}.tgz`);
    writeFileSync(file, tgz);
    copyFileSync(file, `${file}.bak`); // not a .tgz: ignored
    const w = await installAndWait(t, `@acme/${widget}`);
    expect(w).toMatchObject({ status: 'installed', source: 'local', type: 'admin-extension' });
  });
});

describe('runtime isolation', () => {
  let id: string;
  beforeAll(async () => {
    const probe = await publishProbe(m);
    id = probe.id;
    expect((await installAndWait(t, probe.marketplaceId)).status).toBe('installed');
  });

  it('answers 500 when a handler throws, and the shop keeps serving', async () => {
    const before = t.app.plugins.host.stats.routeErrors;
    const res = await t.admin('GET', `/admin/plugins/${id}/boom`);
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({
      type: 'unknown_error',
      code: 'plugin_route_failed',
      message: `Plugin ${id} failed to handle the request`,
    });
    expect(t.app.plugins.host.stats.routeErrors).toBe(before + 1);
    expect((await t.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
    expect((await t.admin('GET', `/admin/plugins/${id}/seen`)).statusCode).toBe(200);
  });

  it("passes a handler's own 4xx through and answers 204 for undefined", async () => {
    const teapot = await t.admin('GET', `/admin/plugins/${id}/teapot`);
    expect(teapot.statusCode).toBe(418);
    expect(teapot.json()).toEqual({ type: 'invalid_data', message: 'short and stout' });
    const missing = await t.admin('GET', `/admin/plugins/${id}/missing/thing`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ type: 'not_found', message: 'no thing' });
    expect((await t.admin('GET', `/admin/plugins/${id}/nothing`)).statusCode).toBe(204);
    expect((await t.admin('GET', `/admin/plugins/${id}/no-such-route`)).statusCode).toBe(404);
    expect((await t.admin('POST', `/admin/plugins/${id}/seen`)).statusCode).toBe(404);
  });

  it('answers 504 when a handler hangs', async () => {
    const res = await t.admin('GET', `/admin/plugins/${id}/hang`);
    expect(res.statusCode).toBe(504);
    expect(res.json()).toEqual({
      type: 'gateway_timeout',
      code: 'plugin_route_timeout',
      message: `Plugin ${id} did not answer within 500 ms`,
    });
    expect(t.app.plugins.host.stats.routeTimeouts).toBeGreaterThan(0);
  });

  it('applies the surface auth rules and hides credentials from the plugin', async () => {
    expect((await t.inject({ method: 'GET', url: `/admin/plugins/${id}/seen` })).statusCode).toBe(401);
    expect((await t.admin('GET', `/admin/plugins/${id}/seen`, undefined, { token: t.viewerToken })).statusCode).toBe(
      200,
    );
    expect((await t.admin('POST', `/admin/plugins/${id}/emit`, { id: 'x' }, { token: t.viewerToken })).statusCode).toBe(
      403,
    );
    const noKey = await t.store('GET', `/store/plugins/${id}/hello/x`, undefined, { key: null });
    expect(noKey.statusCode).toBe(400);
    expect(noKey.json().type).toBe('not_allowed');
    const headers = await t.admin('GET', `/admin/plugins/${id}/headers`, undefined, {
      headers: { 'x-custom': 'yes', cookie: 'connect.sid=secret' },
    });
    expect(headers.json()).toEqual({ authorization: null, cookie: null, custom: 'yes' });
  });

  it("namespaces the plugin's own events under its id", async () => {
    const res = await t.admin('POST', `/admin/plugins/${id}/emit`, { id: 'thing_1' });
    expect(res.json()).toEqual({ emitted: 'thing_1' });
    expect((await outbox(`${id}.thing.done`)).map((e) => e.payload)).toEqual([{ id: 'thing_1' }]);
  });
});

describe('admin bundle', () => {
  it('serves the admin entry with its sha256 as ETag, 304 when unchanged', async () => {
    const widget = pluginSlug('widget');
    const item = await m.publish(await packExample('hello-widget', { id: widget }));
    const plugin = await installAndWait(t, item.marketplace_id);
    expect(plugin.admin_bundle).toEqual({
      url: `/admin/plugins/${plugin.id}/admin-bundle`,
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const res = await t.admin('GET', plugin.admin_bundle.url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(res.headers.etag).toBe(`"${plugin.admin_bundle.sha256}"`);
    expect(res.body).toContain("slot: 'dashboard'");
    const { createHash } = await import('node:crypto');
    expect(createHash('sha256').update(res.rawPayload).digest('hex')).toBe(plugin.admin_bundle.sha256);
    const cached = await t.admin('GET', plugin.admin_bundle.url, undefined, {
      headers: { 'if-none-match': res.headers.etag as string },
    });
    expect(cached.statusCode).toBe(304);
    const probe = await publishProbe(m);
    const noAdmin = await installAndWait(t, probe.marketplaceId);
    expect((await t.admin('GET', `/admin/plugins/${noAdmin.id}/admin-bundle`)).statusCode).toBe(404);
  });
});

describe('validation and access', () => {
  it.each([
    [{ version: '1.0.0', license_key: null }, 'marketplace_id'],
    [{ marketplace_id: '@a/b', license_key: null }, 'version'],
    [{ marketplace_id: '@a/b', version: '1.0.0' }, 'license_key'],
    [{ marketplace_id: 'a/b', version: '1.0.0', license_key: null }, 'marketplace_id'],
    [{ marketplace_id: '@a/b', version: 'latest', license_key: null }, 'version'],
    [{ marketplace_id: '@a/b', version: '1.0.0', license_key: 5 }, 'license_key'],
    [{ marketplace_id: '@a/b', version: '1.0.0', license_key: null, extra: 1 }, 'extra'],
  ])('install refuses %j with 400', async (body, field) => {
    const res = await t.admin('POST', '/admin/plugins/install', body);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().type).toBe('invalid_data');
    expect(res.json().message).toContain(field);
  });

  it('needs a token, and viewers may not install or uninstall', async () => {
    expect((await t.inject({ method: 'GET', url: '/admin/plugins' })).statusCode).toBe(401);
    const body = { marketplace_id: '@a/b', version: '1.0.0', license_key: null };
    expect((await t.admin('POST', '/admin/plugins/install', body, { token: t.viewerToken })).statusCode).toBe(403);
    expect((await t.admin('GET', '/admin/plugins', undefined, { token: t.viewerToken })).statusCode).toBe(200);
    expect((await t.admin('DELETE', '/admin/plugins/plg_nope', undefined, { token: t.viewerToken })).statusCode).toBe(
      403,
    );
    expect((await t.admin('GET', '/admin/plugins/plg_nope')).json()).toEqual({
      type: 'not_found',
      code: 'plugin_not_found',
      message: 'Plugin with id: plg_nope not found',
    });
  });

  it('lists with the pagination envelope', async () => {
    const all = (await t.admin('GET', '/admin/plugins?limit=1000')).json();
    expect(all.count).toBeGreaterThan(2);
    expect(all.plugins).toHaveLength(all.count);
    expect((await t.admin('GET', '/admin/plugins?limit=0')).json()).toEqual({
      plugins: [],
      count: all.count,
      limit: 0,
      offset: 0,
    });
    expect((await t.admin('GET', `/admin/plugins?offset=${all.count}`)).json().plugins).toEqual([]);
    expect((await t.admin('GET', '/admin/plugins?limit=5000')).json().limit).toBe(1000);
    const page = (await t.admin('GET', '/admin/plugins?limit=1&offset=1')).json();
    expect(page.plugins.map((p: { id: string }) => p.id)).toEqual([all.plugins[1].id]);
    expect((await t.admin('GET', '/admin/plugins?limit=-1')).statusCode).toBe(400);
  });
});
