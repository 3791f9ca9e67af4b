import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminToken,
  eventually,
  publishableKey,
  type ServerProcess,
  sleep,
  startServer,
  stopServer,
} from '../processes.ts';
import { type Standby, startStandby } from '../hot-standby.ts';

/**
 * Read replicas (docs/configuration.md "Read replicas") on a real hot standby of the test's own:
 * two instances on one primary with DATABASE_READ_URL. A paused replica shows which reads it
 * serves and that a client's own writes, and the shared answer cache, never come from it; a
 * killed one is left out and taken back, under load, without a 5xx or a lost order.
 */
let standby: Standby;
let a: ServerProcess;
let b: ServerProcess;
let token: string;
let otherToken: string;
let key: string;
let regionId: string;
let variantId: string;
let productId: string;
let replica: pg.Client;
let work: string;

const MAX_LAG_MS = 5_000;

beforeAll(async () => {
  standby = await startStandby();
  work = mkdtempSync(path.join(tmpdir(), 'emporium-rr-'));
  const env = (n: string) => ({
    DATABASE_URL: standby.primaryUrl('shop'),
    DATABASE_READ_URL: standby.replicaUrl('shop'),
    READ_REPLICA_MAX_LAG_MS: String(MAX_LAG_MS),
    RATE_LIMIT_TRUSTED_IPS: '127.0.0.1',
    DATA_DIR: path.join(work, n),
  });
  a = await startServer('rr-a', env('a'));
  b = await startServer('rr-b', env('b'));
  token = await adminToken(a);
  otherToken = await adminToken(b);
  key = await publishableKey(a, token);
  const region = await a.call(
    'POST',
    '/admin/regions',
    { name: 'EU', currency_code: 'eur', countries: ['de'] },
    { token },
  );
  expect(region.status, JSON.stringify(region.body)).toBe(200);
  regionId = region.body.region.id;
  const channels = await a.call('GET', '/admin/sales-channels', undefined, { token });
  const product = await a.call(
    'POST',
    '/admin/products',
    {
      title: 'Title 1',
      handle: 'rr-tee',
      status: 'published',
      sales_channels: [{ id: channels.body.sales_channels[0].id }],
      variants: [{ title: 'M', prices: [{ currency_code: 'eur', amount: 1500 }], inventory_quantity: 1_000_000 }],
    },
    { token },
  );
  expect(product.status, JSON.stringify(product.body)).toBe(200);
  productId = product.body.product.id;
  variantId = product.body.product.variants[0].id;
  replica = new pg.Client({ connectionString: standby.replicaUrl('shop') });
  replica.on('error', () => {}); // the kill below ends this connection too
  await replica.connect();
});

afterAll(async () => {
  await replica?.end().catch(() => {});
  for (const s of [a, b]) if (s) await stopServer(s);
  standby?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

const inRotation = async (s: ServerProcess) => {
  const ready = await s.call('GET', '/ready');
  return ready.status === 200 && ready.body.replicas?.[0]?.in_rotation === true;
};
const adminTitle = async (s: ServerProcess, bearer: string, cookie?: string) => {
  const res = await s.call('GET', `/admin/products?id=${productId}`, undefined, {
    token: bearer,
    headers: cookie ? { cookie } : {},
  });
  expect(res.status).toBe(200);
  return res.body.products[0].title as string;
};

describe('read replicas on a hot standby', () => {
  it('/ready lists the replica with its lag, in rotation', async () => {
    for (const s of [a, b]) await eventually(() => inRotation(s).then((ok) => ok || undefined), 20_000, 'in rotation');
    const ready = await a.call('GET', '/ready');
    expect(ready.body.replicas[0]).toMatchObject({
      name: expect.stringMatching(/^127\.0\.0\.1:\d+\/shop$/),
      lag_ms: expect.any(Number),
    });
  });

  it("a paused replica serves other clients' list reads; the writer and the answer cache read the primary", async () => {
    // In rotation means within the lag limit, not caught up: the product must be on the replica
    // before replay pauses, or the stale read below finds nothing (seen once in a loaded run).
    await eventually(
      async () =>
        (await replica.query('select 1 from products where id = $1', [productId])).rowCount ? true : undefined,
      20_000,
      'the product replayed',
    );
    await replica.query('select pg_wal_replay_pause()');
    try {
      const write = await a.call('POST', `/admin/products/${productId}`, { title: 'Title 2' }, { token });
      expect(write.status).toBe(200);
      const marker = /emporium_rw=\d+/.exec(write.headers.get('set-cookie') ?? '')?.[0];
      expect(marker, 'the write marker cookie').toBeDefined();
      // The writer, on the other instance, with its cookie: the primary.
      expect(await adminTitle(b, token, marker)).toBe('Title 2');
      // The store's products, anonymous, on the other instance: the cache reads only a caught-up replica.
      const store = await b.call('GET', '/store/products?handle=rr-tee', undefined, { key });
      expect(store.body.products[0].title).toBe('Title 2');
      // Another admin, no marker, while the replica is within the lag limit: the replica (stale, as it is paused).
      expect(await adminTitle(b, otherToken)).toBe('Title 1');
      // Once the replica is further behind than the limit, it is out, and everyone reads the primary.
      await eventually(
        () => inRotation(b).then((ok) => (ok ? undefined : true)),
        MAX_LAG_MS + 10_000,
        'out of rotation',
      );
      expect(await adminTitle(b, otherToken)).toBe('Title 2');
    } finally {
      await replica.query('select pg_wal_replay_resume()');
    }
    await eventually(() => inRotation(b).then((ok) => ok || undefined), 20_000, 'back in rotation');
    expect(await adminTitle(b, otherToken)).toBe('Title 2');
  });

  it('journeys through both instances go on while the replica is killed and brought back: no 5xx, every order on the primary', async () => {
    const statuses: number[] = [];
    const failures: string[] = [];
    const orders: string[] = [];
    let stop = false;
    const shopper = async (n: number) => {
      for (let i = 0; !stop; i++) {
        const s = (n + i) % 2 ? a : b;
        try {
          const step = async (method: string, url: string, body?: unknown, o: { token?: string } = {}) => {
            const res = await s.call(method, url, body, { key, ...o });
            statuses.push(res.status);
            if (res.status >= 500) failures.push(`${method} ${url} → ${res.status} ${JSON.stringify(res.body)}`);
            return res;
          };
          await step('GET', `/store/products?handle=rr-tee&region_id=${regionId}`);
          await step('GET', '/store/product-categories?limit=100');
          await step('GET', '/store/collections?limit=100');
          const cart = await step('POST', '/store/carts', {
            region_id: regionId,
            email: `rr-${n}-${i}@example.com`,
            items: [{ variant_id: variantId, quantity: 1 }],
          });
          if (cart.status !== 200) continue;
          const done = await step('POST', `/store/carts/${cart.body.cart.id}/complete`);
          if (done.body?.type === 'order') {
            orders.push(done.body.order.id);
            await step('GET', `/store/orders/${done.body.order.id}`);
          }
          await step('GET', '/admin/orders?limit=5', undefined, { token: otherToken });
          await step('GET', '/admin/dashboard', undefined, { token: otherToken });
        } catch (err) {
          failures.push(String(err));
        }
      }
    };
    const load = Promise.all([0, 1, 2].map(shopper));
    await sleep(2_000);
    await standby.killReplica();
    await eventually(() => inRotation(a).then((ok) => (ok ? undefined : true)), 20_000, 'A sees the replica gone');
    await sleep(2_000);
    await standby.startReplica();
    for (const s of [a, b]) await eventually(() => inRotation(s).then((ok) => ok || undefined), 30_000, 'back');
    await sleep(2_000);
    stop = true;
    await load;
    expect(failures).toEqual([]);
    expect(orders.length).toBeGreaterThan(3);
    expect(statuses.every((st) => st < 500)).toBe(true);
    const primary = new pg.Client({ connectionString: standby.primaryUrl('shop') });
    await primary.connect();
    try {
      const { rows } = await primary.query('select count(*)::int as n from orders where id = any($1)', [orders]);
      expect(rows[0].n).toBe(orders.length);
    } finally {
      await primary.end();
    }
  });
});
