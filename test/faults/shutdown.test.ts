import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packPlugin } from '../../src/modules/plugins/plugins.testing.ts';
import { startReceiver, type Receiver } from '../webhook-receiver.ts';
import {
  adminToken,
  eventually,
  publishableKey,
  sleep,
  startServer,
  stopServer,
  type ServerProcess,
} from '../processes.ts';

/**
 * SIGTERM on an embedded-database shop in the middle of a checkout, a webhook delivery and a
 * slow request: the instance turns unready, refuses new work with 503 + Retry-After, lets what
 * runs finish, closes PGlite cleanly; the next start on the same data dir finds nothing lost or doubled.
 */
let dataDir: string;
let env: Record<string, string>;
let shop: ServerProcess;
let receiver: Receiver;
let token: string;
let key: string;
let variantId: string;
beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'emporium-shutdown-'));
  const pluginsDir = path.join(dataDir, 'plugins');
  mkdirSync(pluginsDir);
  const server = `export default { register(ctx) {
    ctx.routes.store('GET', '/slow', async () => { await new Promise((r) => setTimeout(r, 3000)); return { slow: 'done' }; });
  } };`;
  writeFileSync(
    path.join(pluginsDir, 'slow.tgz'),
    await packPlugin({ id: 'slow', server: 'server/index.js' }, { 'server/index.js': server }),
  );
  env = { DATA_DIR: dataDir, PLUGINS_DIR: pluginsDir, SHUTDOWN_DRAIN_MS: '8000' };
  shop = await startServer('shop', env);
  token = await adminToken(shop);
  key = await publishableKey(shop, token);
  receiver = await startReceiver({ status: 200, body: 'ok', delayMs: 1500 });
  expect(
    (await shop.call('POST', '/admin/webhooks', { url: receiver.url, events: ['product.created'] }, { token })).status,
  ).toBe(200);
  const install = await shop.call(
    'POST',
    '/admin/plugins/install',
    { marketplace_id: '@tests/slow', version: '1.0.0', license_key: null },
    { token },
  );
  expect(install.status).toBe(202);
  await eventually(
    async () =>
      (await shop.call('GET', `/admin/plugins/${install.body.plugin.id}`, undefined, { token })).body.plugin.status ===
      'installed',
    20_000,
    'plugin installed',
  );
  const region = await shop.call(
    'POST',
    '/admin/regions',
    { name: 'Europe', currency_code: 'eur', countries: ['de'] },
    { token },
  );
  expect(region.status).toBe(200);
  const channels = await shop.call('GET', '/admin/sales-channels', undefined, { token });
  const product = await shop.call(
    'POST',
    '/admin/products',
    {
      title: 'Lamp',
      status: 'published',
      sales_channels: [{ id: channels.body.sales_channels[0].id }],
      variants: [{ title: 'One', prices: [{ currency_code: 'eur', amount: 4900 }], inventory_quantity: 5 }],
    },
    { token },
  );
  expect(product.status).toBe(200);
  variantId = product.body.product.variants[0].id;
  await receiver.waitFor(1); // the Lamp's product.created
}, 180_000);
afterAll(async () => {
  if (shop?.proc.exitCode === null) await stopServer(shop);
  await receiver?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('SIGTERM', () => {
  it('drains: in-flight work finishes, new work gets 503, nothing is lost or doubled after a restart', async () => {
    const cart = await shop.call(
      'POST',
      '/store/carts',
      { email: 'ada@example.com', items: [{ variant_id: variantId, quantity: 1 }] },
      { key },
    );
    expect(cart.status, JSON.stringify(cart.body)).toBe(200);
    const cartId = cart.body.cart.id;

    // A delivery in flight (the receiver answers after 1.5 s), a slow request, a checkout.
    const before = receiver.requests.length;
    const created = await shop.call('POST', '/admin/products', { title: 'Desk', status: 'draft' }, { token });
    await receiver.waitFor(before + 1);
    const slow = shop.call('GET', '/store/plugins/slow/slow', undefined, { key });
    const complete = shop.call('POST', `/store/carts/${cartId}/complete`, {}, { key });
    await sleep(400); // both have reached the server; the slow one (3 s) and the delivery are still running
    shop.signal('SIGTERM');
    // The signal is handled once the event loop gets to it (a checkout on PGlite holds the loop
    // for a while on a loaded machine): wait for the instance to say it is unready, then probe.
    await eventually(async () => (await shop.call('GET', '/ready')).status === 503, 2_500, '/ready 503');
    const fresh = await shop.call('GET', '/store/regions', undefined, { key });
    expect(fresh.status).toBe(503);
    expect(fresh.body).toEqual({ type: 'service_unavailable', code: 'shutting_down', message: expect.any(String) });
    expect(fresh.headers.get('retry-after')).toBe('5');
    expect((await shop.call('GET', '/health')).status).toBe(200);

    expect(await slow).toMatchObject({ status: 200, body: { slow: 'done' } });
    const completed = await complete;
    expect([200, 503]).toContain(completed.status);
    expect(await shop.exited).toBe(0);

    // The same data dir opens again at once: the lock died with the process, PGlite was closed cleanly.
    shop = await startServer('shop again', env);
    token = await adminToken(shop);
    if (completed.status === 503) {
      expect((await shop.call('POST', `/store/carts/${cartId}/complete`, {}, { key })).status).toBe(200);
    }
    const orders = await shop.call('GET', '/admin/orders?limit=50', undefined, { token });
    expect(orders.body.orders.filter((o: { email: string }) => o.email === 'ada@example.com')).toHaveLength(1);
    const lamp = (await shop.call('GET', '/admin/products?q=Lamp', undefined, { token })).body.products[0];
    expect(lamp.variants[0].inventory_quantity).toBe(4);

    // The delivery that was in flight finished before the exit and is not sent again.
    await sleep(2_000);
    const deskDeliveries = receiver.requests.filter(
      (r) => (JSON.parse(r.body.toString('utf8')) as { id: string }).id === created.body.product.id,
    );
    expect(deskDeliveries).toHaveLength(1);
    const hooks = await shop.call('GET', '/admin/webhooks', undefined, { token });
    const ledger = await shop.call('GET', `/admin/webhooks/${hooks.body.webhooks[0].id}/deliveries`, undefined, {
      token,
    });
    expect(ledger.body.deliveries.every((d: { status: string }) => d.status === 'succeeded')).toBe(true);
  });
});
