import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/app.ts';
import { makeRegion } from '../checkout/checkout.testing.ts';
import { placeOrder } from '../orders/orders.testing.ts';
import { installAndWait, packPlugin, pluginSlug, startPluginShop } from './plugins.testing.ts';

let t: TestApp;
let env: Record<string, string>;
beforeAll(async () => {
  ({ t, env } = await startPluginShop(null));
});
afterAll(() => t.close());

/** Puts a plugin package in PLUGINS_DIR (the operator's local packages) and returns its marketplace id. */
async function local(manifest: Record<string, unknown>, server: string): Promise<string> {
  const bytes = await packPlugin({ server: 'server/index.js', ...manifest }, { 'server/index.js': server });
  writeFileSync(path.join(env.PLUGINS_DIR, `${manifest.id}-${manifest.version ?? '1.0.0'}.tgz`), bytes);
  return `@tests/${manifest.id}`;
}

const get = async (id: string) => (await t.admin('GET', `/admin/plugins/${id}`)).json().plugin;

const READER = `export default { register(ctx) {
  ctx.routes.admin('GET', '/order/:id', async (req) => ({ order: await ctx.orders.retrieve(req.params.id) }));
} };`;

describe('declared rights', () => {
  it('shows what a plugin asks for before install and once installed', async () => {
    const id = pluginSlug('rights-shown');
    const permissions = { events: ['order.*'], routes: { admin: true }, hosts: ['api.example.com'] };
    const mid = await local(
      { id, permissions },
      `export default { register(ctx) { ctx.on('order.placed', () => {}); ctx.routes.admin('GET', '/ping', () => ({ pong: true })); } };`,
    );
    const preview = await t.admin('GET', `/admin/marketplace/feed/${mid}`);
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json().product).toMatchObject({
      permissions_declared: true,
      permissions: { events: ['order.*'], apis: [], routes: { admin: true, store: false }, providers: [] },
    });

    const row = await installAndWait(t, mid);
    expect(row).toMatchObject({ status: 'installed', permissions_declared: true, pending_update: null });
    expect(row.permissions).toEqual({
      events: ['order.*'],
      apis: [],
      routes: { admin: true, store: false },
      providers: [],
      hosts: ['api.example.com'],
      admin_extension: { bundle: false, methods: [] },
    });
    expect((await t.admin('GET', `/admin/plugins/${id}/ping`)).json()).toEqual({ pong: true });
  });

  it.each([
    ['an event it did not declare', `ctx.on('customer.created', () => {})`, 'event:customer.created'],
    ['a broader event pattern', `ctx.on('*', () => {})`, 'event:*'],
    ['a store route', `ctx.routes.store('GET', '/x', () => ({}))`, 'route:store'],
    [
      'a notification provider',
      `ctx.notifications.register({ id: 'x', channels: ['email'], send: async () => ({}) })`,
      'provider:notifications',
    ],
  ])('refuses %s: the install fails with the missing right', async (_what, call, right) => {
    const id = pluginSlug('rights-refused');
    const mid = await local(
      { id, permissions: { events: ['order.placed'], routes: { admin: true } } },
      `export default { register(ctx) { ${call}; } };`,
    );
    const row = await installAndWait(t, mid);
    expect(row.status).toBe('failed');
    expect(row.error).toContain(`may not use ${right}`);
    expect(t.app.plugins.host.isLoaded(id, row.id)).toBeUndefined();
  });

  it('orders:read gives ctx.orders.retrieve the order as the admin API shows it; without it the call is refused', async () => {
    await makeRegion(t);
    const { order } = await placeOrder(t);
    const reader = pluginSlug('rights-reader');
    await installAndWait(
      t,
      await local({ id: reader, permissions: { apis: ['orders:read'], routes: { admin: true } } }, READER),
    );
    const admin = (await t.admin('GET', `/admin/orders/${order.id}`)).json().order;
    const seen = await t.admin('GET', `/admin/plugins/${reader}/order/${order.id}`);
    expect(seen.statusCode, seen.body).toBe(200);
    expect(seen.json().order).toEqual(admin);
    expect((await t.admin('GET', `/admin/plugins/${reader}/order/order_missing`)).json()).toEqual({ order: null });

    const nosy = pluginSlug('rights-nosy');
    await installAndWait(t, await local({ id: nosy, permissions: { routes: { admin: true } } }, READER));
    const refused = await t.admin('GET', `/admin/plugins/${nosy}/order/${order.id}`);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toContain('may not use api:orders:read');
  });

  it('an old manifest without permissions keeps working, flagged, showing the rights it uses', async () => {
    const id = pluginSlug('rights-legacy');
    const mid = await local(
      { id },
      `export default { register(ctx) { ctx.on('order.placed', () => {}); ctx.routes.store('GET', '/hi', () => ({ hi: 1 })); } };`,
    );
    expect((await t.admin('GET', `/admin/marketplace/feed/${mid}`)).json().product.permissions_declared).toBe(false);
    const row = await installAndWait(t, mid);
    expect(row).toMatchObject({ status: 'installed', permissions_declared: false });
    expect(row.permissions).toMatchObject({
      events: ['order.placed'],
      apis: [],
      routes: { admin: false, store: true },
      providers: [],
    });
    expect((await t.store('GET', `/store/plugins/${id}/hi`)).json()).toEqual({ hi: 1 });
    // The read APIs are new: an old manifest never had them.
    const reader = pluginSlug('rights-legacy-reader');
    await installAndWait(t, await local({ id: reader }, READER));
    expect((await t.admin('GET', `/admin/plugins/${reader}/order/x`)).statusCode).toBe(403);
  });
});

describe('an update that asks for more rights', () => {
  it('waits for the operator: the old version runs until POST /admin/plugins/{id}/update/approve', async () => {
    const id = pluginSlug('rights-upd');
    const v1 = `export default { register(ctx) { ctx.routes.admin('GET', '/v', () => ({ v: 1 })); } };`;
    const v2 = `export default { register(ctx) {
      ctx.routes.admin('GET', '/v', () => ({ v: 2 }));
      ctx.routes.store('GET', '/v', () => ({ v: 2 }));
    } };`;
    const mid = await local({ id, version: '1.0.0', permissions: { routes: { admin: true } } }, v1);
    const row = await installAndWait(t, mid);
    await local(
      { id, version: '1.1.0', permissions: { routes: { admin: true, store: true }, apis: ['orders:read'] } },
      v2,
    );

    const started = await t.admin('POST', `/admin/plugins/${row.id}/update`, { version: '1.1.0' });
    expect(started.statusCode, started.body).toBe(200);
    await t.app.plugins.settled();
    const waiting = await get(row.id);
    expect(waiting).toMatchObject({ status: 'installed', version: '1.0.0', target_version: null, error: null });
    expect(waiting.pending_update).toEqual({
      version: '1.1.0',
      permissions: expect.objectContaining({ routes: { admin: true, store: true }, apis: ['orders:read'] }),
      new_rights: ['api:orders:read', 'route:store'],
      approve_url: `/admin/plugins/${row.id}/update/approve`,
    });
    expect((await t.admin('GET', `/admin/plugins/${id}/v`)).json()).toEqual({ v: 1 });
    expect((await t.store('GET', `/store/plugins/${id}/v`)).statusCode).toBe(404);

    const wrong = await t.admin('POST', `/admin/plugins/${row.id}/update/approve`, { version: '1.2.0' });
    expect(wrong.statusCode).toBe(409);
    expect((await t.admin('POST', `/admin/plugins/${row.id}/update/approve`, {})).statusCode).toBe(400);

    const approved = await t.admin('POST', `/admin/plugins/${row.id}/update/approve`, { version: '1.1.0' });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().plugin).toMatchObject({ status: 'updating', target_version: '1.1.0', pending_update: null });
    await t.app.plugins.settled();
    expect(await get(row.id)).toMatchObject({ status: 'installed', version: '1.1.0', pending_update: null });
    expect((await t.store('GET', `/store/plugins/${id}/v`)).json()).toEqual({ v: 2 });
    expect((await t.admin('POST', `/admin/plugins/${row.id}/update/approve`, { version: '1.1.0' })).statusCode).toBe(
      409,
    );
  });

  it('an update within the granted rights goes through without approval', async () => {
    const id = pluginSlug('rights-same');
    const code = `export default { register(ctx) { ctx.routes.admin('GET', '/v', () => ({ v: ctx.plugin.version })); } };`;
    const row = await installAndWait(
      t,
      await local({ id, version: '1.0.0', permissions: { routes: { admin: true, store: true } } }, code),
    );
    await local({ id, version: '1.0.1', permissions: { routes: { admin: true } } }, code);
    expect((await t.admin('POST', `/admin/plugins/${row.id}/update`, { version: '1.0.1' })).statusCode).toBe(200);
    await t.app.plugins.settled();
    expect(await get(row.id)).toMatchObject({ status: 'installed', version: '1.0.1', pending_update: null });
    expect((await t.admin('GET', `/admin/plugins/${id}/v`)).json()).toEqual({ v: '1.0.1' });
  });
});
