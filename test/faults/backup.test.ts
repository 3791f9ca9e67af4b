import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packPlugin } from '../../src/modules/plugins/plugins.testing.ts';
import {
  SHARED_SECRETS,
  adminToken,
  eventually,
  publishableKey,
  startServer,
  stopServer,
  type ServerProcess,
} from '../processes.ts';

/** `emporium backup` of a running embedded-database shop, `emporium restore` into a new DATA_DIR. */
const ROOT = path.resolve(import.meta.dirname, '../..');
const cli = (args: string[], env: Record<string, string>) =>
  spawnSync(process.execPath, ['bin/emporium.mjs', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
  });

let work: string;
let pluginsDir: string;
let shop: ServerProcess;
let restored: ServerProcess | undefined;
beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), 'emporium-backup-'));
  pluginsDir = path.join(work, 'plugins');
  mkdirSync(pluginsDir);
});
afterAll(async () => {
  if (shop?.proc.exitCode === null) await stopServer(shop);
  if (restored?.proc.exitCode === null) await stopServer(restored);
  rmSync(work, { recursive: true, force: true });
});

describe('backup and restore of the embedded database', () => {
  it('a backup taken while the shop runs restores into a new DATA_DIR with the same catalog, orders and plugins', async () => {
    writeFileSync(
      path.join(pluginsDir, 'greeter.tgz'),
      await packPlugin(
        {
          id: 'greeter',
          server: 'server/index.js',
          config: [{ key: 'token', label: 'Token', type: 'string', secret: true }],
        },
        {
          'server/index.js':
            "export default { register(ctx) { ctx.routes.store('GET', '/hi', () => ({ hi: ctx.config.token ?? null })); } };",
        },
      ),
    );
    const first = path.join(work, 'first');
    shop = await startServer('shop', { DATA_DIR: first, PLUGINS_DIR: pluginsDir });
    const token = await adminToken(shop);
    const key = await publishableKey(shop, token);
    await shop.call('POST', '/admin/regions', { name: 'EU', currency_code: 'eur', countries: ['fr'] }, { token });
    const channel = (await shop.call('GET', '/admin/sales-channels', undefined, { token })).body.sales_channels[0].id;
    const product = await shop.call(
      'POST',
      '/admin/products',
      {
        title: 'Backed-up chair',
        status: 'published',
        sales_channels: [{ id: channel }],
        variants: [{ title: 'Oak', prices: [{ currency_code: 'eur', amount: 12000 }], inventory_quantity: 3 }],
      },
      { token },
    );
    const variantId = product.body.product.variants[0].id;
    const cart = await shop.call(
      'POST',
      '/store/carts',
      { email: 'grace@example.com', items: [{ variant_id: variantId, quantity: 1 }] },
      { key },
    );
    const order = await shop.call('POST', `/store/carts/${cart.body.cart.id}/complete`, {}, { key });
    expect(order.status).toBe(200);
    const install = await shop.call(
      'POST',
      '/admin/plugins/install',
      { marketplace_id: '@tests/greeter', version: '1.0.0', license_key: null },
      { token },
    );
    const pluginId = install.body.plugin.id;
    await eventually(
      async () =>
        (await shop.call('GET', `/admin/plugins/${pluginId}`, undefined, { token })).body.plugin.status === 'installed',
      20_000,
      'plugin installed',
    );
    await shop.call(
      'POST',
      `/admin/plugins/${pluginId}/configure`,
      { config: { token: 'kept-secret-1234' } },
      { token },
    );

    const file = path.join(work, 'shop.backup.tgz');
    const backup = cli(['backup', file], { DATA_DIR: first, ...SHARED_SECRETS });
    expect(backup.status, backup.stderr).toBe(0);
    expect(backup.stdout).toContain('from the running server');
    expect(existsSync(file)).toBe(true);
    expect((await shop.call('GET', '/health')).status).toBe(200); // still serving

    const second = path.join(work, 'second');
    const restore = cli(['restore', file], { DATA_DIR: second, ...SHARED_SECRETS });
    expect(restore.status, restore.stderr).toBe(0);
    const again = cli(['restore', file], { DATA_DIR: second, ...SHARED_SECRETS });
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('not empty');

    restored = await startServer('restored', { DATA_DIR: second, PLUGINS_DIR: path.join(work, 'no-plugins') });
    const token2 = await adminToken(restored);
    const products = await restored.call('GET', '/store/products', undefined, { key });
    expect(products.body.products.map((p: { title: string }) => p.title)).toEqual(['Backed-up chair']);
    const orders = await restored.call('GET', '/admin/orders', undefined, { token: token2 });
    expect(orders.body.orders.map((o: { id: string }) => o.id)).toEqual([order.body.order.id]);
    const lamp = await restored.call('GET', `/admin/products/${product.body.product.id}`, undefined, { token: token2 });
    expect(lamp.body.product.variants[0].inventory_quantity).toBe(2);
    const plugin = await restored.call('GET', `/admin/plugins/${pluginId}`, undefined, { token: token2 });
    expect(plugin.body.plugin.status).toBe('installed');
    // Its code comes back from the database (no PLUGINS_DIR here), its secret with the same ENCRYPTION_KEY.
    await eventually(
      async () => (await restored!.call('GET', '/store/plugins/greeter/hi', undefined, { key })).status === 200,
    );
    expect((await restored.call('GET', '/store/plugins/greeter/hi', undefined, { key })).body).toEqual({
      hi: 'kept-secret-1234',
    });
  });

  it('refuses PostgreSQL (pg_dump is the tool there)', () => {
    const res = cli(['backup', path.join(work, 'x')], {
      DATABASE_URL: 'postgres://nobody@127.0.0.1:1/x',
      ...SHARED_SECRETS,
    });
    expect(res.status).toBe(2);
    expect(res.stderr).toContain('pg_dump');
  });
});
