import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '../webhook-receiver.ts';
import {
  adminToken,
  eventually,
  freePort,
  freshDatabase,
  publishableKey,
  sleep,
  startServer,
  stopServer,
  type ServerProcess,
} from '../processes.ts';
import { createTempPostgres, type TempPostgres } from './temp-postgres.ts';

/**
 * PostgreSQL restarted under load: while it is down requests fail fast with 503 { type, message },
 * the server reconnects by itself, the outbox and the webhook deliveries resume, nothing exits.
 */
let pg: TempPostgres;
let shop: ServerProcess;
let receiver: Receiver;
let token: string;
let key: string;
beforeAll(async () => {
  pg = createTempPostgres(await freePort());
  const url = await freshDatabase(pg.url, 'emporium_outage');
  receiver = await startReceiver({ status: 200, body: 'ok' });
  shop = await startServer('shop', { DATABASE_URL: url, DATABASE_CONNECT_TIMEOUT_MS: '1000' });
  token = await adminToken(shop);
  key = await publishableKey(shop, token);
  const hook = await shop.call(
    'POST',
    '/admin/webhooks',
    { url: receiver.url, events: ['product.created'] },
    { token },
  );
  expect(hook.status).toBe(200);
}, 120_000);
afterAll(async () => {
  if (shop) await stopServer(shop);
  await receiver?.close();
  pg?.destroy();
});

const deliveredIds = () =>
  new Set(receiver.requests.map((r) => (JSON.parse(r.body.toString('utf8')) as { id: string }).id));

describe('database outage', () => {
  it('fails fast with 503 while PostgreSQL is down, recovers by itself, loses no event', async () => {
    const seen: { phase: string; status: number; body: unknown; ms: number }[] = [];
    const created: string[] = [];
    let phase = 'before';
    let running = true;
    let n = 0;
    const load = (async () => {
      while (running) {
        const started = Date.now();
        const [list, create] = await Promise.all([
          shop.call('GET', '/store/products?limit=5', undefined, { key }).catch(() => null),
          shop
            .call('POST', '/admin/products', { title: `Outage ${n++}`, status: 'draft' }, { token })
            .catch(() => null),
        ]);
        for (const res of [list, create]) {
          if (res) seen.push({ phase, status: res.status, body: res.body, ms: Date.now() - started });
        }
        if (create?.status === 200) created.push(create.body.product.id);
        await sleep(50);
      }
    })();

    await sleep(1_000);
    phase = 'down';
    pg.stop();
    await sleep(3_000);
    phase = 'restarting';
    pg.start();
    await eventually(async () => (await shop.call('GET', '/ready')).status === 200, 30_000, 'ready again').catch(
      (e) => {
        console.log('SHOP', shop.proc.exitCode, shop.logs.slice(-30).join('\n'));
        throw e;
      },
    );
    phase = 'after';
    await sleep(1_000);
    running = false;
    await load;

    expect(shop.proc.exitCode).toBeNull();
    const down = seen.filter((s) => s.phase === 'down');
    expect(down.length).toBeGreaterThan(0);
    expect(down.filter((s) => s.status === 503).length).toBeGreaterThan(0);
    for (const s of seen) {
      expect(s.status === 503 || s.status < 500, `${s.phase}: ${s.status} ${JSON.stringify(s.body)}`).toBe(true);
      if (s.status >= 400) expect(s.body).toMatchObject({ type: expect.any(String), message: expect.any(String) });
    }
    // Fail fast: a refused connection is answered at once, not after a hang (bounded well below the load's pace).
    expect(Math.max(...down.map((s) => s.ms))).toBeLessThan(5_000);
    expect(seen.filter((s) => s.phase === 'after' && s.status === 200).length).toBeGreaterThan(0);

    // Every product that was created (200) is delivered, including those committed around the outage.
    await eventually(
      async () => created.every((id) => deliveredIds().has(id)),
      30_000,
      'every product.created delivered',
    );
    const fresh = await shop.call('POST', '/admin/products', { title: 'After the outage', status: 'draft' }, { token });
    expect(fresh.status).toBe(200);
    await eventually(async () => deliveredIds().has(fresh.body.product.id), 15_000, 'a new event delivered');
  }, 120_000);
});
