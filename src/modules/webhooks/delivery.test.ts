import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/app.ts';
import { rows } from '../../platform/db/database.ts';
import { RETRY_DELAYS_MS } from '../../platform/delivery/retry-plan.ts';
import {
  deliveryDetail,
  dispatchAndSend,
  emitEvent,
  expectValidSignature,
  ledger,
  SECRET,
  webhookFixtures,
} from './webhooks.testing.ts';
import { verifySignature } from './verify-signature.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const fx = webhookFixtures(() => t);
afterEach(() => fx.cleanup());

let seq = 0;
const uid = (prefix: string) => `${prefix}_${Date.now().toString(36)}_${++seq}`;

describe('delivery to a real receiver', () => {
  it('POSTs a product.created event, signed over the exact bytes, with the spec headers', async () => {
    const receiver = await fx.receiver();
    const hook = await fx.subscribe(`${receiver.url}/hooks/in?src=emporium`, ['product.*']);
    const created = await fx.admin('POST', '/admin/products', { title: 'Webhook Lamp' });
    expect(created.statusCode, created.body).toBe(200);
    const product = created.json().product;

    await dispatchAndSend(t);
    expect(receiver.requests).toHaveLength(1);
    const [req] = receiver.requests;
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/hooks/in?src=emporium');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers['x-service-event']).toBe('product.created');
    expect(req.headers['x-service-delivery-id']).toMatch(/^whd_/);
    expectValidSignature(req.headers['x-service-signature'], req.body, SECRET, t.clock.now());
    expect(verifySignature(req.body, String(req.headers['x-service-signature']), SECRET, { now: t.clock.now() })).toBe(
      true,
    );
    expect(JSON.parse(req.body.toString('utf8'))).toMatchObject({ id: product.id, title: 'Webhook Lamp' });

    const list = await ledger(fx.admin, hook.id);
    expect(list).toEqual({
      deliveries: [
        {
          id: req.headers['x-service-delivery-id'],
          event: 'product.created',
          status: 'succeeded',
          attempt_count: 1,
          next_attempt_at: null,
          last_status_code: 200,
          created_at: t.clock.now().toISOString(),
        },
      ],
      count: 1,
      limit: 20,
      offset: 0,
    });
    const detail = await deliveryDetail(fx.admin, hook.id, list.deliveries[0].id);
    expect(detail.payload).toEqual(JSON.parse(req.body.toString('utf8')));
    expect(detail.attempts).toEqual([
      {
        attempted_at: t.clock.now().toISOString(),
        status_code: 200,
        duration_ms: expect.any(Number),
        error: null,
        response_body: 'ok',
      },
    ]);

    await dispatchAndSend(t);
    expect(receiver.requests).toHaveLength(1);
  });

  it('sends only matching events and stores a shared payload once for several subscriptions', async () => {
    const a = await fx.receiver();
    const b = await fx.receiver();
    const hookA = await fx.subscribe(a.url, ['order.*']);
    const hookB = await fx.subscribe(b.url, ['order.placed', 'cart.created']);
    const orderId = uid('order');
    await emitEvent(t, 'order.placed', { id: orderId, total: 1999 });
    await emitEvent(t, 'order.paid', { id: orderId });
    await emitEvent(t, 'customer.created', { id: uid('cus') });
    await dispatchAndSend(t);

    expect(a.requests.map((r) => r.headers['x-service-event']).sort()).toEqual(['order.paid', 'order.placed']);
    expect(b.requests.map((r) => r.headers['x-service-event'])).toEqual(['order.placed']);
    const placedA = a.requests.find((r) => r.headers['x-service-event'] === 'order.placed')!;
    expect(placedA.body.equals(b.requests[0].body)).toBe(true);
    expect(placedA.headers['x-service-delivery-id']).not.toBe(b.requests[0].headers['x-service-delivery-id']);

    const payloads = await rows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from webhook_payloads where body like ${`%${orderId}%`}`,
    );
    expect(payloads[0].n).toBe(2); // order.placed and order.paid, each once
    expect((await ledger(fx.admin, hookA.id)).count).toBe(2);
    expect((await ledger(fx.admin, hookB.id)).count).toBe(1);
  });

  it('keeps non-2xx answers as failures and records the first 1 KiB of the body', async () => {
    const receiver = await fx.receiver({ status: 302, body: 'y'.repeat(3000) });
    const hook = await fx.subscribe(receiver.url, ['cart.created']);
    await emitEvent(t, 'cart.created', { id: uid('cart') });
    await dispatchAndSend(t);
    const [d] = (await ledger(fx.admin, hook.id)).deliveries;
    expect(d).toMatchObject({ status: 'retrying', attempt_count: 1, last_status_code: 302 });
    expect(d.next_attempt_at).toBe(new Date(t.clock.now().getTime() + 60_000).toISOString());
    const [attempt] = (await deliveryDetail(fx.admin, hook.id, d.id)).attempts;
    expect(attempt.response_body).toBe('y'.repeat(1024));
  });
});

/** Moves the clock through every retry delay, sending what becomes due each time. */
async function runSchedule(onStep?: (delay: number) => Promise<void>) {
  for (const delay of RETRY_DELAYS_MS) {
    t.clock.advance(delay - 1000);
    await t.workers.webhooks.drain();
    await onStep?.(delay);
    t.clock.advance(1000);
    await t.workers.webhooks.drain();
  }
}

describe('retries and dead-letter', () => {
  it('retries a failing receiver at +1m, +5m, +30m, +2h, +12h, then dead-letters and notifies', async () => {
    const receiver = await fx.receiver({ status: 500, body: 'boom' });
    const hook = await fx.subscribe(receiver.url, ['order.placed']);
    await emitEvent(t, 'order.placed', { id: uid('order') });
    await dispatchAndSend(t);
    expect(receiver.requests).toHaveLength(1);

    let expected = 1;
    await runSchedule(async () => {
      // A second before the retry is due nothing is sent.
      expect(receiver.requests).toHaveLength(expected);
      expected++;
    });
    expect(receiver.requests).toHaveLength(6);
    const ids = new Set(receiver.requests.map((r) => r.headers['x-service-delivery-id']));
    expect(ids.size).toBe(1);
    const stamps = receiver.requests.map((r) => /^t=(\d+)/.exec(String(r.headers['x-service-signature']))![1]);
    expect(new Set(stamps).size).toBe(6);

    const [d] = (await ledger(fx.admin, hook.id)).deliveries;
    expect(d).toMatchObject({ status: 'dead', attempt_count: 6, next_attempt_at: null, last_status_code: 500 });
    const detail = await deliveryDetail(fx.admin, hook.id, d.id);
    expect(detail.attempts).toHaveLength(6);
    expect(
      detail.attempts.every(
        (a: { status_code: number; response_body: string }) => a.status_code === 500 && a.response_body === 'boom',
      ),
    ).toBe(true);
    const gaps = detail.attempts
      .slice(1)
      .map(
        (a: { attempted_at: string }, i: number) =>
          Date.parse(a.attempted_at) - Date.parse(detail.attempts[i].attempted_at),
      );
    expect(gaps).toEqual([...RETRY_DELAYS_MS]);

    const notes = (await fx.admin('GET', '/admin/notifications?type=webhook.failing&limit=1000')).json().notifications;
    const mine = notes.filter((n: { data: { delivery_id: string } }) => n.data.delivery_id === d.id);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ type: 'webhook.failing', data: { webhook_id: hook.id, delivery_id: d.id } });

    t.clock.advance(48 * 3_600_000);
    await t.workers.webhooks.drain();
    expect(receiver.requests).toHaveLength(6);
  });

  it('manually retries a dead delivery with the same delivery id', async () => {
    const receiver = await fx.receiver({ status: 503 });
    const hook = await fx.subscribe(receiver.url, ['customer.updated']);
    await emitEvent(t, 'customer.updated', { id: uid('cus') });
    await dispatchAndSend(t);
    await runSchedule();
    const [dead] = (await ledger(fx.admin, hook.id, '?status=dead')).deliveries;
    expect(dead.attempt_count).toBe(6);

    receiver.mode = { status: 204 };
    const res = await fx.admin('POST', `/admin/webhooks/${hook.id}/deliveries/${dead.id}/retry`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().delivery).toMatchObject({
      id: dead.id,
      status: 'retrying',
      next_attempt_at: t.clock.now().toISOString(),
    });
    await t.workers.webhooks.drain();
    expect(receiver.requests).toHaveLength(7);
    expect(receiver.requests[6].headers['x-service-delivery-id']).toBe(dead.id);
    expect(await deliveryDetail(fx.admin, hook.id, dead.id)).toMatchObject({
      status: 'succeeded',
      attempt_count: 7,
      last_status_code: 204,
    });
  });

  it('replays every dead delivery of a subscription, and filters the ledger by status', async () => {
    const receiver = await fx.receiver({ status: 500 });
    const hook = await fx.subscribe(receiver.url, ['product.deleted']);
    for (let i = 0; i < 3; i++) await emitEvent(t, 'product.deleted', { id: uid('prod') });
    await dispatchAndSend(t);
    await runSchedule();
    expect((await ledger(fx.admin, hook.id, '?status=dead')).count).toBe(3);
    expect((await ledger(fx.admin, hook.id, '?status=succeeded')).count).toBe(0);

    receiver.mode = { status: 200 };
    const replay = await fx.admin('POST', `/admin/webhooks/${hook.id}/deliveries/replay-dead`);
    expect(replay.json()).toEqual({ replayed: 3 });
    await t.workers.webhooks.drain();
    expect(receiver.requests).toHaveLength(21);
    expect((await ledger(fx.admin, hook.id, '?status=succeeded')).count).toBe(3);
    expect((await ledger(fx.admin, hook.id, '?status[]=dead&status[]=retrying')).count).toBe(0);
    expect((await fx.admin('POST', `/admin/webhooks/${hook.id}/deliveries/replay-dead`)).json()).toEqual({
      replayed: 0,
    });

    const page = await ledger(fx.admin, hook.id, '?limit=2&offset=2');
    expect(page).toMatchObject({ count: 3, limit: 2, offset: 2 });
    expect(page.deliveries).toHaveLength(1);
    expect((await ledger(fx.admin, hook.id, '?limit=0')).deliveries).toEqual([]);
    expect((await fx.admin('GET', `/admin/webhooks/${hook.id}/deliveries?status=lost`)).statusCode).toBe(400);
  });

  it('stops open deliveries when a subscription is deactivated or deleted', async () => {
    const receiver = await fx.receiver({ status: 500 });
    const paused = await fx.subscribe(receiver.url, ['cart.updated']);
    const removed = await fx.subscribe(receiver.url, ['cart.updated']);
    await emitEvent(t, 'cart.updated', { id: uid('cart') });
    await dispatchAndSend(t);
    expect(receiver.requests).toHaveLength(2);

    expect((await fx.admin('PATCH', `/admin/webhooks/${paused.id}`, { active: false })).statusCode).toBe(200);
    expect((await fx.admin('DELETE', `/admin/webhooks/${removed.id}`)).statusCode).toBe(200);
    const [d] = (await ledger(fx.admin, paused.id)).deliveries;
    expect(d).toMatchObject({ status: 'dead', next_attempt_at: null });

    await emitEvent(t, 'cart.updated', { id: uid('cart') });
    t.clock.advance(3_600_000);
    await dispatchAndSend(t);
    expect(receiver.requests).toHaveLength(2);
    expect((await ledger(fx.admin, paused.id)).count).toBe(1);

    const retry = await fx.admin('POST', `/admin/webhooks/${paused.id}/deliveries/${d.id}/retry`);
    expect(retry.statusCode).toBe(400);
    expect(retry.json().type).toBe('not_allowed');
  });
});
