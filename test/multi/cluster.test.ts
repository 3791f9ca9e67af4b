import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packPlugin } from '../../src/modules/plugins/plugins.testing.ts';
import { packExample, uploadForm } from '../../src/modules/marketplace/marketplace.testing.ts';
import { pidOfLocalPort, sleep, eventually, ADMIN } from '../processes.ts';
import { startReceiver, type Receiver, type ReceiverMode } from '../webhook-receiver.ts';
import { startCluster, type Cluster } from './cluster.testing.ts';

/** Contract Part C: N instances on one DATABASE_URL + REDIS_URL, proven with real processes. */
let c: Cluster;
const receivers: Receiver[] = [];
beforeAll(async () => {
  c = await startCluster();
}, 240_000);
afterAll(async () => {
  for (const r of receivers) await r.close();
  await c?.stop();
});

const [A, B, C] = [0, 1, 2];
const shop = (i: number) => c.shops[i];
const admin = (i: number, method: string, url: string, body?: unknown) =>
  shop(i).call(method, url, body, { token: c.shopToken });
const store = (i: number, method: string, url: string, body?: unknown) =>
  shop(i).call(method, url, body, { key: c.shopKey });
async function receiver(mode: ReceiverMode = { status: 200, body: 'ok' }) {
  const r = await startReceiver(mode);
  receivers.push(r);
  return r;
}
const eventIdOf = (body: Buffer) => (JSON.parse(body.toString('utf8')) as { id: string }).id;

describe('three shops and two marketplaces started at the same moment on empty databases', () => {
  it('all came up and applied each migration once (advisory lock)', async () => {
    const files = readdirSync(path.resolve(import.meta.dirname, '../../migrations')).filter((f) => f.endsWith('.sql'));
    const { rows } = await c.shopDb.query(
      'select count(*)::int as n, count(distinct hash)::int as distinct_n from drizzle.__drizzle_migrations',
    );
    expect(rows[0]).toEqual({ n: files.length, distinct_n: files.length });
    for (const s of [...c.shops, ...c.markets]) expect((await s.call('GET', '/ready')).status).toBe(200);
  });
});

describe('shared state', () => {
  it('a token from A works on B and C; a session from A too, until it ends on C', async () => {
    const token = (await shop(A).call('POST', '/auth/user/emailpass', ADMIN)).body.token;
    for (const i of [B, C])
      expect((await shop(i).call('GET', '/admin/users/me', undefined, { token })).status).toBe(200);
    const session = await fetch(`${shop(A).url}/auth/session`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    const cookie = session.headers.get('set-cookie')!.split(';')[0];
    const me = (i: number) => shop(i).call('GET', '/admin/users/me', undefined, { headers: { cookie } });
    expect((await me(B)).status).toBe(200);
    expect((await shop(C).call('DELETE', '/auth/session', undefined, { headers: { cookie } })).status).toBe(200);
    expect((await me(B)).status).toBe(401);
  });

  // From one address the (email, address) count trips first: LOGIN_MAX_FAILURES=6 makes it 2.
  it('login limits are shared: 30 wrong guesses from one address spread over three instances check 2 passwords in all', async () => {
    const guesses = Array.from({ length: 30 }, (_, i) =>
      shop(i % 3).call('POST', '/auth/user/emailpass', { email: 'nobody@example.com', password: `guess-${i}` }),
    );
    const statuses = (await Promise.all(guesses)).map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(2);
    expect(statuses.filter((s) => s === 429)).toHaveLength(28);
  });

  it('the marketplace rate limit is shared by the two marketplaces', async () => {
    const client = { 'x-forwarded-for': '203.0.113.77' };
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++)
      statuses.push(
        (await c.markets[i % 2].call('GET', '/store/marketplace/keys', undefined, { headers: client })).status,
      );
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(statuses.slice(10)).toEqual([429, 429]);
  });
});

describe('plugins', () => {
  it('installed through A, a plugin answers on B and C within 2 s; uninstalled likewise', async () => {
    const server = `export default { register(ctx) { ctx.routes.store('GET', '/ping', () => ({ pong: true, pid: process.pid })); } };`;
    writeFileSync(
      path.join(c.pluginsDir, 'pinger.tgz'),
      await packPlugin({ id: 'pinger', server: 'server/index.js' }, { 'server/index.js': server }),
    );
    const install = await admin(A, 'POST', '/admin/plugins/install', {
      marketplace_id: '@tests/pinger',
      version: '1.0.0',
      license_key: null,
    });
    expect(install.status, JSON.stringify(install.body)).toBe(202);
    const id = install.body.plugin.id;
    await eventually(
      async () => (await admin(A, 'GET', `/admin/plugins/${id}`)).body.plugin.status === 'installed',
      20_000,
      'installed on A',
    );
    const installedAt = Date.now();
    const pings = await Promise.all(
      [A, B, C].map((i) =>
        eventually(
          async () => ((await store(i, 'GET', '/store/plugins/pinger/ping')).status === 200 ? Date.now() : 0),
          2_000,
          `ping on ${i}`,
        ),
      ),
    );
    expect(Math.max(...pings) - installedAt).toBeLessThan(2_000);
    const pids = await Promise.all(
      [A, B, C].map(async (i) => (await store(i, 'GET', '/store/plugins/pinger/ping')).body.pid),
    );
    expect(new Set(pids).size).toBe(3); // served by each process itself

    expect((await admin(A, 'DELETE', `/admin/plugins/${id}`)).status).toBe(200);
    const removedAt = Date.now();
    const gone = await Promise.all(
      [A, B, C].map((i) =>
        eventually(
          async () => ((await store(i, 'GET', '/store/plugins/pinger/ping')).status === 404 ? Date.now() : 0),
          2_000,
          `gone on ${i}`,
        ),
      ),
    );
    expect(Math.max(...gone) - removedAt).toBeLessThan(2_000);
  });
});

describe('background work happens once', () => {
  it('every webhook delivery is attempted exactly once across the instances', async () => {
    const r = await receiver();
    const hook = await admin(A, 'POST', '/admin/webhooks', { url: r.url, events: ['product.created'] });
    expect(hook.status).toBe(200);
    const created = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        admin(i % 3, 'POST', '/admin/products', { title: `Once ${i}`, status: 'draft' }),
      ),
    );
    const ids = created.map((res) => res.body.product.id as string);
    await r.waitFor(30);
    await sleep(2_000); // anything sent twice would have arrived by now
    const deliveries = r.requests.map((q) => String(q.headers['x-service-delivery-id']));
    expect(new Set(deliveries).size).toBe(deliveries.length);
    expect(r.requests.map((q) => eventIdOf(q.body)).sort()).toEqual([...ids].sort());
    await admin(A, 'DELETE', `/admin/webhooks/${hook.body.webhook.id}`);
  });

  it('an idle cart is abandoned once, however many instances look', async () => {
    expect(
      (await admin(A, 'POST', '/admin/regions', { name: 'EU', currency_code: 'eur', countries: ['nl'] })).status,
    ).toBe(200);
    const carts = await Promise.all(
      Array.from({ length: 6 }, (_, i) => store(i % 3, 'POST', '/store/carts', { email: `idle${i}@example.com` })),
    );
    const ids = carts.map((res) => res.body.cart.id as string);
    await c.shopDb.query(`update carts set last_activity_at = now() - interval '2 hours' where id = any($1)`, [ids]);
    await eventually(
      async () => {
        const { rows } = await c.shopDb.query(
          'select count(*)::int as n from carts where id = any($1) and abandoned_at is not null',
          [ids],
        );
        return rows[0].n === ids.length;
      },
      10_000,
      'carts abandoned',
    );
    await sleep(1_000); // three instances run the job every 300 ms
    const { rows } = await c.shopDb.query(
      `select payload->>'id' as id, count(*)::int as n from outbox where name = 'cart.abandoned' and payload->>'id' = any($1) group by 1`,
      [ids],
    );
    expect(rows).toHaveLength(ids.length);
    expect(rows.every((row) => row.n === 1)).toBe(true);
  });

  it('kill -9 of the instance holding a delivery: another one sends it after the lease, answered once', async () => {
    const r = await receiver('hang');
    const hook = await admin(A, 'POST', '/admin/webhooks', { url: r.url, events: ['product.created'] });
    const product = await admin(A, 'POST', '/admin/products', { title: 'Leased', status: 'draft' });
    await r.waitFor(1);
    const first = r.requests[0];
    const holderPid = pidOfLocalPort(
      first.remotePort!,
      c.shops.map((s) => s.proc.pid!),
    );
    const holder = c.shops.find((s) => s.proc.pid === holderPid);
    expect(holder, 'the sending instance').toBeDefined();
    r.mode = { status: 200, body: 'ok' };
    holder!.signal('SIGKILL');
    await holder!.exited;
    await r.waitFor(2); // after the 9 s lease, from a survivor
    await sleep(2_000);
    expect(r.requests).toHaveLength(2);
    expect(r.requests.map((q) => q.headers['x-service-delivery-id'])).toEqual([
      first.headers['x-service-delivery-id'],
      first.headers['x-service-delivery-id'],
    ]);
    expect(eventIdOf(r.requests[1].body)).toBe(product.body.product.id);
    expect(
      pidOfLocalPort(
        r.requests[1].remotePort!,
        c.shops.map((s) => s.proc.pid!),
      ),
    ).not.toBe(holderPid);
    const survivor = c.shops.findIndex((s) => s !== holder);
    const ledger = await admin(survivor, 'GET', `/admin/webhooks/${hook.body.webhook.id}/deliveries`);
    expect(ledger.body.deliveries).toMatchObject([{ status: 'succeeded', attempt_count: 1 }]);
  });

  it('kill -9 of the marketplace holding a license callback: the other one sends it after the lease, answered once', async () => {
    const market = c.markets[0];
    const publish = await fetch(`${market.url}/admin/marketplace/items`, {
      method: 'POST',
      headers: { authorization: `Bearer ${c.marketToken}` },
      body: uploadForm(await packExample('loyalty-points', { id: 'loyal-multi' }), { price_eur: '5' }),
    });
    expect(publish.status).toBe(200);
    const item = (await publish.json()).item;
    const r = await receiver('hang');
    const client = (n: number) => ({ headers: { 'x-forwarded-for': `198.51.100.${n}` } });
    const session = await market.call(
      'POST',
      '/store/marketplace/checkout/session',
      {
        marketplace_id: item.marketplace_id,
        version: '1.0.0',
        customer_email: 'buyer@example.com',
        instance_id: 'inst_multi_0001',
        callback_url: r.url,
      },
      client(1),
    );
    expect(session.status, JSON.stringify(session.body)).toBe(200);
    const paid = await fetch(`${market.url}/store/marketplace/checkout/test/${session.body.id}/pay`, {
      method: 'POST',
      headers: client(2).headers,
    });
    expect(paid.status).toBe(200);
    await r.waitFor(1);
    const pids = c.markets.map((m) => m.proc.pid!);
    const holderPid = pidOfLocalPort(r.requests[0].remotePort!, pids);
    const holder = c.markets.find((m) => m.proc.pid === holderPid);
    expect(holder, 'the sending marketplace').toBeDefined();
    r.mode = { status: 200, body: 'ok' };
    holder!.signal('SIGKILL');
    await holder!.exited;
    await r.waitFor(2);
    await sleep(2_000);
    expect(r.requests).toHaveLength(2);
    expect(r.requests[1].path).toBe('/admin/marketplace/license-issued');
    expect(JSON.parse(r.requests[1].body.toString('utf8'))).toEqual(JSON.parse(r.requests[0].body.toString('utf8')));
    expect(pidOfLocalPort(r.requests[1].remotePort!, pids)).not.toBe(holderPid);
  });
});
