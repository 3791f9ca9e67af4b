import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { rows } from '../../platform/db/database.ts';
import { claimDueDeliveries } from './delivery-queries.ts';
import { deliveryDetail, dispatchAndSend, emitEvent, ledger, webhookFixtures } from './webhooks.testing.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const fx = webhookFixtures(() => t);
afterEach(() => fx.cleanup());

let seq = 0;
const uid = (prefix: string) => `${prefix}_${Date.now().toString(36)}_${++seq}`;

const attemptCounts = (hookId: string) =>
  rows<{ delivery_id: string; n: number }>(
    t.database.db,
    sql`select a.delivery_id, count(*)::int as n from webhook_attempts a
        join webhook_deliveries d on d.id = a.delivery_id where d.subscription_id = ${hookId} group by a.delivery_id`,
  );

describe('pool and timeouts', () => {
  it('delivers to a fast receiver while a hanging one holds only its own slots', async () => {
    const slow = await fx.receiver('hang');
    const fast = await fx.receiver();
    const order: string[] = [];
    let drops = 0;
    let allDropped!: () => void;
    const dropped = new Promise<void>((resolve) => (allDropped = resolve));
    slow.onEvent = (what) => {
      order.push(`slow:${what}`);
      if (what === 'dropped' && ++drops === 5) allDropped();
    };
    fast.onEvent = (what) => order.push(`fast:${what}`);
    const slowHook = await fx.subscribe(slow.url, ['order.placed']);
    const fastHook = await fx.subscribe(fast.url, ['order.paid']);

    // The hanging receiver's deliveries are older, so they are claimed first.
    for (let i = 0; i < 5; i++) await emitEvent(t, 'order.placed', { id: uid('order') });
    await t.workers.dispatcher.drain();
    t.clock.advance(1000);
    await emitEvent(t, 'order.paid', { id: uid('order') });
    await t.workers.dispatcher.drain();

    const sender = fx.sender({ timeoutMs: 200, concurrency: 4, perSubscription: 2 });
    await sender.drain();
    await dropped;

    expect(fast.requests).toHaveLength(1);
    expect(order.indexOf('fast:request')).toBeGreaterThanOrEqual(0);
    expect(order.indexOf('fast:request')).toBeLessThan(order.indexOf('slow:dropped'));
    // At most two of the hanging receiver's deliveries were in flight at once.
    expect(
      order.slice(0, order.indexOf('slow:dropped')).filter((e) => e === 'slow:request').length,
    ).toBeLessThanOrEqual(2);

    expect((await ledger(fx.admin, fastHook.id)).deliveries[0]).toMatchObject({
      status: 'succeeded',
      last_status_code: 200,
    });
    const slowOnes = (await ledger(fx.admin, slowHook.id)).deliveries;
    expect(slowOnes.map((d: { status: string }) => d.status)).toEqual(Array(5).fill('retrying'));
    const [attempt] = (await deliveryDetail(fx.admin, slowHook.id, slowOnes[0].id)).attempts;
    expect(attempt).toMatchObject({ status_code: null, error: 'no answer within 200 ms', response_body: null });
  });

  it('gives back in-flight deliveries unrecorded when stopped, due at once for another sender', async () => {
    const receiver = await fx.receiver('hang');
    const hook = await fx.subscribe(receiver.url, ['cart.created']);
    await emitEvent(t, 'cart.created', { id: uid('cart') });
    await t.workers.dispatcher.drain();
    const first = fx.sender();
    const draining = first.drain();
    await receiver.waitFor(1);
    await first.stop();
    await draining;
    expect(await attemptCounts(hook.id)).toEqual([]);

    receiver.mode = { status: 200 };
    await fx.sender().drain();
    expect(receiver.requests).toHaveLength(2);
    expect(receiver.requests[1].headers['x-service-delivery-id']).toBe(
      receiver.requests[0].headers['x-service-delivery-id'],
    );
    expect((await ledger(fx.admin, hook.id)).deliveries[0]).toMatchObject({ status: 'succeeded', attempt_count: 1 });
  });
});

describe('closing a subscription', () => {
  it('keeps a delivery dead when its subscription is deactivated while an attempt runs', async () => {
    const receiver = await fx.receiver('hang');
    const hook = await fx.subscribe(receiver.url, ['order.refunded']);
    await emitEvent(t, 'order.refunded', { id: uid('order') });
    await t.workers.dispatcher.drain();
    const sending = fx.sender({ timeoutMs: 200 }).drain();
    await receiver.waitFor(1);
    expect((await fx.admin('PATCH', `/admin/webhooks/${hook.id}`, { active: false })).statusCode).toBe(200);
    await sending;

    const [d] = (await ledger(fx.admin, hook.id)).deliveries;
    expect(d).toMatchObject({ status: 'dead', attempt_count: 1, next_attempt_at: null });
    const [attempt] = (await deliveryDetail(fx.admin, hook.id, d.id)).attempts;
    expect(attempt.error).toBe('no answer within 200 ms');
  });
});

describe('durability and concurrency', () => {
  it('retries a delivery claimed by a sender that died, once its lease expired', async () => {
    const receiver = await fx.receiver();
    const hook = await fx.subscribe(receiver.url, ['customer.created']);
    await emitEvent(t, 'customer.created', { id: uid('cus') });
    await t.workers.dispatcher.drain();

    // A sender claims it and dies before sending (its lease is all that is left of it).
    const now = t.clock.now();
    const claimed = await claimDueDeliveries(t.database.db, {
      now,
      leaseUntil: new Date(now.getTime() + 60_000),
      limit: 100,
      perSubscription: 100,
    });
    expect(claimed.map((d) => d.subscription_id)).toContain(hook.id);

    const survivor = fx.sender();
    await survivor.drain();
    expect(receiver.requests).toHaveLength(0);
    t.clock.advance(61_000);
    await survivor.drain();
    expect(receiver.requests).toHaveLength(1);
    expect((await ledger(fx.admin, hook.id)).deliveries[0]).toMatchObject({ status: 'succeeded', attempt_count: 1 });
  });

  it('lets two senders on one database make exactly one attempt per due delivery', async () => {
    const receiver = await fx.receiver();
    const hook = await fx.subscribe(receiver.url, ['product.updated']);
    for (let i = 0; i < 40; i++) await emitEvent(t, 'product.updated', { id: uid('prod') });
    await t.workers.dispatcher.drain();
    const a = fx.sender({ concurrency: 8, perSubscription: 8 });
    const b = fx.sender({ concurrency: 8, perSubscription: 8 });
    await Promise.all([a.drain(), b.drain()]);

    const ids = receiver.requests.map((r) => r.headers['x-service-delivery-id']);
    expect(ids).toHaveLength(40);
    expect(new Set(ids).size).toBe(40);
    const counts = await attemptCounts(hook.id);
    expect(counts).toHaveLength(40);
    expect(counts.every((c) => c.n === 1)).toBe(true);
    expect(a.stats.attempts + b.stats.attempts).toBe(40);
  });

  it('sends on its own once started: woken by the fan-out, no drain', async () => {
    const receiver = await fx.receiver();
    await fx.subscribe(receiver.url, ['order.shipped']);
    await t.workers.start();
    try {
      await emitEvent(t, 'order.shipped', { id: uid('order') });
      await receiver.waitFor(1);
    } finally {
      await t.workers.stop();
    }
    expect(receiver.requests[0].headers['x-service-event']).toBe('order.shipped');
  });
});

describe('SSRF guard at send time', () => {
  it('refuses private targets when the sender blocks them (IP literal and a name resolving to loopback)', async () => {
    const receiver = await fx.receiver();
    const port = new URL(receiver.url).port;
    const byIp = await fx.subscribe(receiver.url, ['order.cancelled']);
    const byName = await fx.subscribe(`http://localhost:${port}/x`, ['order.cancelled']);
    await emitEvent(t, 'order.cancelled', { id: uid('order') });
    await dispatchAndSend(t, fx.sender({ blockPrivate: true }));

    expect(receiver.requests).toHaveLength(0);
    for (const hook of [byIp, byName]) {
      const [d] = (await ledger(fx.admin, hook.id)).deliveries;
      expect(d).toMatchObject({ status: 'retrying', attempt_count: 1, last_status_code: null });
      const [attempt] = (await deliveryDetail(fx.admin, hook.id, d.id)).attempts;
      expect(attempt.error).toMatch(/private or local address, which is not allowed/);
    }
  });
});
